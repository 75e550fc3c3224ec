/// A FLAC PICTURE metadata block (also what METADATA_BLOCK_PICTURE carries in Vorbis and Opus
/// comments, base64-encoded): its picture type and where its image bytes lie.
struct FLACPicture {
    let type: Int
    let dataOffset: Int
    let dataLength: Int

    /// The block body at `offset` of `source` (after any block header), `length` bytes long.
    init?(in source: some ByteSource, at offset: Int, length: Int) {
        func number(_ at: Int) -> Int? {
            let bytes = source.bytes(at: at, count: 4)
            return bytes.count == 4 ? Int(UInt32(bigEndian: bytes, at: 0)) : nil
        }
        guard let type = number(offset), let mimeLength = number(offset + 4),
            let descriptionLength = number(offset + 8 + mimeLength)
        else { return nil }
        let sizeAt = offset + 12 + mimeLength + descriptionLength + 16
        guard let dataLength = number(sizeAt), sizeAt + 4 + dataLength <= offset + length, dataLength > 0 else {
            return nil
        }
        self.type = type
        self.dataOffset = sizeAt + 4
        self.dataLength = dataLength
    }

    func bytes(in source: some ByteSource, limit: Int) -> [UInt8]? {
        guard dataLength <= limit else { return nil }
        let bytes = source.bytes(at: dataOffset, count: dataLength)
        return bytes.count == dataLength ? bytes : nil
    }

    /// The front cover (else the first picture) of a native FLAC file's metadata blocks.
    static func front(inBlocksOf source: some ByteSource, limit: Int) -> [UInt8]? {
        let pictures = FLACMetadata.blocks(in: source).filter { $0.type == 6 }.compactMap {
            FLACPicture(in: source, at: $0.offset, length: $0.length)
        }
        return EmbeddedPictures.choose(
            pictures.lazy.map { picture in (picture.type, { picture.bytes(in: source, limit: limit) }) })
    }
}

/// The metadata blocks of a native FLAC file, after "fLaC": a 4-byte header each (the last-block
/// flag and the type, a 24-bit length), the first of them STREAMINFO.
enum FLACMetadata {
    /// More blocks than any file has: a file of zeros would otherwise be millions of empty ones.
    static let maximumBlocks = 1024

    /// Each block's type and where its body lies.
    static func blocks(in source: some ByteSource) -> [(type: UInt8, offset: Int, length: Int)] {
        var blocks: [(type: UInt8, offset: Int, length: Int)] = []
        var offset = 4
        while blocks.count < maximumBlocks {
            let header = source.bytes(at: offset, count: 4)
            guard header.count == 4 else { break }
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            blocks.append((header[0] & 0x7F, offset + 4, length))
            offset += 4 + length
            if header[0] & 0x80 != 0 { break }
        }
        return blocks
    }
}
