import Foundation

/// The pitch of a sound, measured in the tests with an FFT of their own (not the code under test).
public enum Spectrum {
    /// The strongest frequency (Hz) in the first channel of interleaved 16-bit `samples`, from a
    /// Hann-windowed FFT of up to 2^16 frames starting at `offset`, refined between bins by a
    /// parabola through the peak's log magnitudes. nil when fewer than 1024 frames are there.
    public static func dominantFrequency(
        _ samples: [Int16], channels: Int, sampleRate: Int, offset: Int = 0
    ) -> Double? {
        let frames = (samples.count / channels) - offset
        guard frames >= 1024 else { return nil }
        var size = 1
        while size * 2 <= min(frames, 1 << 16) { size *= 2 }
        var re = [Double](repeating: 0, count: size)
        var im = [Double](repeating: 0, count: size)
        for i in 0..<size {
            let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size - 1))
            re[i] = Double(samples[(offset + i) * channels]) * hann
        }
        fft(&re, &im)
        var magnitudes = [Double](repeating: 0, count: size / 2)
        for bin in 0..<(size / 2) {
            let power: Double = re[bin] * re[bin] + im[bin] * im[bin]
            magnitudes[bin] = log(power + 1e-12)
        }
        var peak = 1
        for bin in 1..<(size / 2 - 1) where magnitudes[bin] > magnitudes[peak] { peak = bin }
        let a = magnitudes[peak - 1]
        let b = magnitudes[peak]
        let c = magnitudes[peak + 1]
        let curve: Double = a - 2 * b + c
        let shift: Double = curve == 0 ? 0 : 0.5 * (a - c) / curve
        return (Double(peak) + shift) * Double(sampleRate) / Double(size)
    }

    /// In-place iterative radix-2 FFT (size a power of two).
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: n, by: length) {
                for k in 0..<(length / 2) {
                    let (wr, wi) = (cos(angle * Double(k)), sin(angle * Double(k)))
                    let (a, b) = (start + k, start + k + length / 2)
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
            }
            length <<= 1
        }
    }
}
