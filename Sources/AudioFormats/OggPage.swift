/// One page of an Ogg stream (RFC 3533): its header, where it lies, and its checksum.
struct OggPage {
    /// Where the page starts in the file.
    let offset: Int
    let headerType: UInt8
    let granulePosition: Int64
    let serial: UInt32
    /// The lacing values: a packet ends at a value below 255.
    let segments: [UInt8]
    let storedChecksum: UInt32

    static let fixedHeaderLength = 27

    var headerLength: Int { Self.fixedHeaderLength + segments.count }
    var bodyLength: Int { segments.reduce(0) { $0 + Int($1) } }
    var length: Int { headerLength + bodyLength }
    var end: Int { offset + length }
    /// The first packet of this page continues one from the page before.
    var continuesPacket: Bool { headerType & 0x01 != 0 }

    /// The page whose header begins at `offset` of `source`; nil when there is no Ogg page there
    /// (or its header is cut short).
    init?(in source: some ByteSource, at offset: Int) {
        let fixed = source.bytes(at: offset, count: Self.fixedHeaderLength)
        guard fixed.count == Self.fixedHeaderLength, fixed.starts(with: Array("OggS".utf8)), fixed[4] == 0 else {
            return nil
        }
        let count = Int(fixed[26])
        let segments = source.bytes(at: offset + Self.fixedHeaderLength, count: count)
        guard segments.count == count else { return nil }
        self.offset = offset
        headerType = fixed[5]
        granulePosition = Int64(bitPattern: fixed[6..<14].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        serial = UInt32(littleEndian: fixed, at: 14)
        storedChecksum = UInt32(littleEndian: fixed, at: 22)
        self.segments = segments
    }

    /// Whether the page's bytes (header and body) match its stored CRC.
    func checksumMatches(in source: some ByteSource) -> Bool {
        var page = source.bytes(at: offset, count: length)
        guard page.count == length else { return false }
        page.replaceSubrange(22..<26, with: [0, 0, 0, 0])
        return OggCRC.checksum(page) == storedChecksum
    }

    /// The codec the first packet of a stream starting with `bytes` names.
    static func firstCodec(_ bytes: [UInt8]) -> AudioContainer.OggCodec {
        guard bytes.count > fixedHeaderLength else { return .unknown }
        let start = fixedHeaderLength + Int(bytes[26])
        guard start < bytes.count else { return .unknown }
        let packet = bytes[start...]
        if packet.starts(with: Array("OpusHead".utf8)) { return .opus }
        if packet.starts(with: [0x01] + Array("vorbis".utf8)) { return .vorbis }
        if packet.starts(with: [0x7F] + Array("FLAC".utf8)) { return .flac }
        if packet.starts(with: Array("Speex   ".utf8)) { return .speex }
        return .unknown
    }
}
