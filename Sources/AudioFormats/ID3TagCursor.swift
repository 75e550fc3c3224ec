/// Reads an ID3v2 tag's body front to back, undoing the whole-tag unsynchronisation of v2.3
/// (a 0x00 after every 0xFF was inserted) as it goes, a block at a time.
struct ID3TagCursor<Source: ByteSource> {
    let source: Source
    private var offset: Int
    private let end: Int
    private let unsynchronised: Bool
    private var previousWasFF = false

    init(source: Source, start: Int, end: Int, unsynchronised: Bool) {
        self.source = source
        self.offset = start
        self.end = min(end, source.size)
        self.unsynchronised = unsynchronised
    }

    /// The next `count` bytes of the tag (fewer at its end).
    mutating func read(_ count: Int) -> [UInt8] {
        guard unsynchronised else {
            let bytes = source.bytes(at: offset, count: min(count, max(0, end - offset)))
            offset += bytes.count
            return bytes
        }
        var result: [UInt8] = []
        while result.count < count && offset < end {
            let block = source.bytes(at: offset, count: min(64 * 1024, end - offset, count - result.count + 64))
            guard !block.isEmpty else { break }
            var used = 0
            for byte in block {
                if result.count == count { break }
                used += 1
                if previousWasFF && byte == 0 {
                    previousWasFF = false
                    continue
                }
                previousWasFF = byte == 0xFF
                result.append(byte)
            }
            offset += used
        }
        return result
    }

    mutating func skip(_ count: Int) {
        guard unsynchronised else {
            offset += max(0, count)
            return
        }
        var left = count
        while left > 0 && offset < end {
            let step = min(left, 64 * 1024)
            let got = read(step).count
            guard got > 0 else { break }
            left -= got
        }
    }
}
