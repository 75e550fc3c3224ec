/// A Vorbis comment block (Vorbis I, 5.2.1; also Opus's OpusTags and FLAC's VORBIS_COMMENT):
/// a vendor string, then a count of `KEY=value` comments, each after its length, all lengths
/// 32-bit little-endian. Read in place: a comment is read only when its reader wants it.
struct VorbisComments<Source: ByteSource> {
    let bytes: Source
    /// Where the vendor string's length is.
    let start: Int

    /// Gives `body` each comment's offset and length in turn until it returns false, the count
    /// is reached, or the block ends (a count that lies ends there).
    func visit<Failure: Error>(_ body: (_ offset: Int, _ length: Int) throws(Failure) -> Bool) throws(Failure) {
        guard let vendor = number(at: start), let count = number(at: start + 4 + vendor) else { return }
        var offset = start + 8 + vendor
        for _ in 0..<count {
            guard let length = number(at: offset), offset + 4 + length <= bytes.size else { return }
            guard try body(offset + 4, length) else { return }
            offset += 4 + length
        }
    }

    /// Whether the comment at `offset` starts with `key` (compared in upper case, as keys are
    /// case-insensitive).
    func hasKey(_ key: [UInt8], at offset: Int, length: Int) -> Bool {
        length >= key.count && bytes.bytes(at: offset, count: key.count).map(Self.uppercased) == key
    }

    private func number(at offset: Int) -> Int? {
        let field = bytes.bytes(at: offset, count: 4)
        return field.count == 4 ? Int(UInt32(littleEndian: field, at: 0)) : nil
    }

    static func uppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
    }
}
