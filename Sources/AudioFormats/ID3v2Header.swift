/// The ten bytes that begin an ID3v2 tag ("ID3", version, flags, syncsafe size).
struct ID3v2Header {
    /// 2, 3 or 4.
    let majorVersion: Int
    let flags: UInt8
    /// Bytes after the header, up to the footer (the size the header gives).
    let bodySize: Int

    static let length = 10

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.length, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33,  // "ID3"
            bytes[3] >= 2, bytes[3] <= 4
        else { return nil }
        majorVersion = Int(bytes[3])
        flags = bytes[5]
        // Syncsafe: seven bits a byte. A size byte with its top bit set is a broken tag, read
        // as written: the sniffer must still call it audio, as it has always done.
        bodySize = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
    }

    /// Whether the whole tag is unsynchronised (ID3v2.3; in v2.4 it is said frame by frame).
    var isUnsynchronised: Bool { flags & 0x80 != 0 }
    var hasExtendedHeader: Bool { flags & 0x40 != 0 }
    /// The offset of the first byte after the tag (its footer included, v2.4).
    var end: Int { Self.length + bodySize + (majorVersion == 4 && flags & 0x10 != 0 ? 10 : 0) }
}
