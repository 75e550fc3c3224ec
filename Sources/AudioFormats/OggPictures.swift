/// The pictures of an Ogg file: Vorbis and Opus keep them in METADATA_BLOCK_PICTURE comments
/// (a FLAC PICTURE block, base64-encoded); Ogg FLAC in PICTURE header packets.
enum OggPictures {
    static let pictureKey = Array("METADATA_BLOCK_PICTURE=".utf8)

    static func front(in source: some ByteSource, limit: Int) -> [UInt8]? {
        let packets = OggPacket.leading(8, in: source)
        guard let first = packets.first else { return nil }
        let signature = first.bytes(at: 0, count: 8, in: source)
        if signature.starts(with: Array("OpusHead".utf8)), packets.count > 1 {
            return comments(packets[1], skipping: 8, in: source, limit: limit)
        }
        if signature.starts(with: [0x01] + Array("vorbis".utf8)), packets.count > 1 {
            return comments(packets[1], skipping: 7, in: source, limit: limit)
        }
        if signature.starts(with: [0x7F] + Array("FLAC".utf8)) {
            // Each header packet after the first is a metadata block with its 4-byte header.
            let pictures = packets.dropFirst().lazy.compactMap { packet -> (type: Int, bytes: () -> [UInt8]?)? in
                let bytes = PacketBytes(packet: packet, source: source)
                guard bytes.bytes(at: 0, count: 1).first.map({ $0 & 0x7F == 6 }) == true,
                    let picture = FLACPicture(in: bytes, at: 4, length: packet.length - 4)
                else { return nil }
                return (picture.type, { picture.bytes(in: bytes, limit: limit) })
            }
            return EmbeddedPictures.choose(pictures)
        }
        return nil
    }

    /// The pictures in a Vorbis comment packet (after its `skip`-byte signature): a vendor
    /// string, then length-prefixed `KEY=value` comments, each read only if it is a picture.
    private static func comments(_ packet: OggPacket, skipping skip: Int, in source: some ByteSource, limit: Int)
        -> [UInt8]?
    {
        let comments = VorbisComments(bytes: PacketBytes(packet: packet, source: source), start: skip)
        // Base64 takes 4 bytes for 3, and the block's fields come before the image.
        let longest = pictureKey.count + (limit + 4096) / 3 * 4 + 4
        var pictures: [(type: Int, bytes: () -> [UInt8]?)] = []
        comments.visit { start, length in
            guard length > pictureKey.count, length <= longest, comments.hasKey(pictureKey, at: start, length: length),
                let block = Base64.decode(
                    comments.bytes.bytes(at: start + pictureKey.count, count: length - pictureKey.count))
            else { return true }
            let memory = MemoryBytes(block)
            guard let picture = FLACPicture(in: memory, at: 0, length: block.count) else { return true }
            pictures.append((picture.type, { picture.bytes(in: memory, limit: limit) }))
            return picture.type != EmbeddedPictures.frontCover
        }
        return EmbeddedPictures.choose(pictures)
    }
}
