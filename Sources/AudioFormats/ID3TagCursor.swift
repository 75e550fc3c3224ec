/// Reads an ID3v2 tag's body front to back, undoing the whole-tag unsynchronisation of v2.3
/// (a 0x00 after every 0xFF was inserted) as it goes, a block at a time.
struct ID3TagCursor<Source: ByteSource> {
    let source: Source
    private var offset: Int
    private let end: Int
    private let declaredEnd: Int
    private let unsynchronised: Bool
    private var previousWasFF = false

    init(source: Source, start: Int, end: Int, unsynchronised: Bool) {
        self.source = source
        self.offset = start
        self.end = min(end, source.size)
        self.declaredEnd = end
        self.unsynchronised = unsynchronised
    }

    /// A cursor at the first frame of the tag whose header (`header`) is at `start`: past any
    /// extended header; nil when that is cut short.
    init?(tagAt start: Int, header: ID3v2Header, in source: Source) {
        self.init(
            source: source, start: start + ID3v2Header.length, end: start + ID3v2Header.length + header.bodySize,
            unsynchronised: header.majorVersion < 4 && header.isUnsynchronised)
        if header.hasExtendedHeader {
            let field = read(4)
            guard field.count == 4 else { return nil }
            // v2.3 gives the size after the field; v2.4, syncsafe, including it.
            let size =
                header.majorVersion == 4
                ? field.reduce(0) { $0 << 7 | Int($1 & 0x7F) } - 4 : Int(UInt32(bigEndian: field, at: 0))
            skip(size)
        }
    }

    /// Whether the tag's body reaches past the end of the file.
    var tagEndsPastFile: Bool { end < declaredEnd }

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
