import Foundation

/// Where a stretch of 16-bit PCM sits in a reference decoding, and how far its samples are from
/// it there: for seeks, whose first frames a decoder that starts afresh (AAC, Opus) gives a step
/// or two differently from a play-through.
public enum PCMComparison {
    public static func samples(_ data: Data) -> [Int16] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The offset in frames (within ±`reach`) at which a window of `ours`, a second in, best
    /// matches `reference` when `ours` was asked to start at frame `start`; and the largest
    /// difference of any sample of `ours` from the reference at that offset.
    public static func alignment(
        of ours: Data, in reference: Data, startingAt start: Int, channels: Int, sampleRate: Int, reach: Int
    ) -> (offset: Int, largestDifference: Int) {
        let ours = samples(ours)
        let reference = samples(reference)
        let windowStart = min(sampleRate * channels, max(0, ours.count - 512))
        let window = ours[windowStart..<min(ours.count, windowStart + 512)]
        func distance(_ offset: Int) -> Int {
            let at = (start + offset) * channels + windowStart
            guard at >= 0, at + window.count <= reference.count else { return .max }
            return window.withUnsafeBufferPointer { window in
                reference.withUnsafeBufferPointer { reference in
                    var sum = 0
                    for index in 0..<window.count { sum += abs(Int(window[index]) - Int(reference[at + index])) }
                    return sum
                }
            }
        }
        let offset = (-reach...reach).min { distance($0) < distance($1) }!
        let from = (start + offset) * channels
        guard from >= 0, from + ours.count <= reference.count else { return (offset, .max) }
        var largest = 0
        for index in 0..<ours.count { largest = max(largest, abs(Int(ours[index]) - Int(reference[from + index]))) }
        return (offset, largest)
    }
}
