/// One frame header of an ID3v2 tag.
struct ID3Frame {
    let id: String
    /// The bytes of the frame's body as stored.
    let storedLength: Int
    let flags: UInt16
    let version: Int

    init?<Source: ByteSource>(reading cursor: inout ID3TagCursor<Source>, version: Int) {
        let headerLength = version == 2 ? 6 : 10
        let header = cursor.read(headerLength)
        guard header.count == headerLength, header[0] != 0 else { return nil }  // padding
        let idLength = version == 2 ? 3 : 4
        id = String(decoding: header[0..<idLength], as: UTF8.self)
        let sizeBytes = header[idLength..<(idLength + (version == 2 ? 3 : 4))]
        let plain = sizeBytes.reduce(0) { $0 << 8 | Int($1) }
        if version == 4 {
            // Some writers (iTunes; ffmpeg 5.1 for CTOC and CHAP) put a plain size in a v2.4 tag:
            // a size byte with its top bit set, or a syncsafe reading not followed by a frame.
            let syncsafe = sizeBytes.reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            let isSyncsafe = sizeBytes.allSatisfy { $0 < 0x80 }
            let writtenPlain =
                !isSyncsafe
                || (syncsafe != plain && !Self.frameFollows(cursor, after: syncsafe)
                    && Self.frameFollows(cursor, after: plain))
            storedLength = writtenPlain ? plain : syncsafe
        } else {
            storedLength = plain
        }
        flags = version == 2 ? 0 : UInt16(header[8]) << 8 | UInt16(header[9])
        self.version = version
    }

    /// Whether a frame header (four capitals or digits), padding, or the tag's end comes
    /// `length` bytes past `cursor`.
    private static func frameFollows<Source: ByteSource>(_ cursor: ID3TagCursor<Source>, after length: Int) -> Bool {
        var ahead = cursor
        ahead.skip(length)
        let id = ahead.read(4)
        return id.count < 4 || id[0] == 0
            || id.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }  // A-Z, 0-9
    }

    var isPicture: Bool { id == "APIC" || id == "PIC" }
    var isCompressedOrEncrypted: Bool { version == 3 ? flags & 0x00C0 != 0 : version == 4 && flags & 0x000C != 0 }
    var isUnsynchronised: Bool { version == 4 && flags & 0x0002 != 0 }
    var hasDataLengthIndicator: Bool { version == 4 && flags & 0x0001 != 0 }

    /// The frame's body, read from `cursor` just past the header, as the frame means it: its
    /// data length indicator dropped and its own unsynchronisation undone; nil when the tag (or
    /// the file) ends first.
    func body<Source: ByteSource>(from cursor: inout ID3TagCursor<Source>) -> [UInt8]? {
        var body = cursor.read(storedLength)
        guard body.count == storedLength else { return nil }
        if hasDataLengthIndicator { body.removeFirst(min(4, body.count)) }
        return isUnsynchronised ? Self.resynchronised(body) : body
    }

    /// `bytes` with every 0x00 that follows a 0xFF removed.
    static func resynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var previousWasFF = false
        for byte in bytes {
            if previousWasFF && byte == 0 {
                previousWasFF = false
                continue
            }
            previousWasFF = byte == 0xFF
            result.append(byte)
        }
        return result
    }
}
