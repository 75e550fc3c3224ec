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
        storedLength = version == 4 ? sizeBytes.reduce(0) { $0 << 7 | Int($1 & 0x7F) } : sizeBytes.reduce(0) { $0 << 8 | Int($1) }
        flags = version == 2 ? 0 : UInt16(header[8]) << 8 | UInt16(header[9])
        self.version = version
    }

    var isPicture: Bool { id == "APIC" || id == "PIC" }
    var isCompressedOrEncrypted: Bool { version == 3 ? flags & 0x00C0 != 0 : version == 4 && flags & 0x000C != 0 }
    var isUnsynchronised: Bool { version == 4 && flags & 0x0002 != 0 }
    var hasDataLengthIndicator: Bool { version == 4 && flags & 0x0001 != 0 }

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
