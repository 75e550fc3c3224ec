/// The picture an audio file carries, as a lock screen wants it: the front cover when there is
/// one, else the first. From an ID3v2 tag (APIC, PIC), an MP4's `covr`, FLAC's PICTURE blocks,
/// or the METADATA_BLOCK_PICTURE comment of Vorbis and Opus. Only the picture's own bytes are
/// read, and none larger than the limit: a 100 MB picture in a tag costs no memory.
public enum EmbeddedPictures {
    /// Picture type 3 of ID3v2 and FLAC, "Cover (front)".
    static let frontCover = 3

    /// The picture's bytes as stored (the format is whatever the tagger put there); nil when the
    /// file has none of at most `limit` bytes.
    public static func front(in source: some ByteSource, limit: Int) -> [UInt8]? {
        let head = source.bytes(at: 0, count: AudioSniffer.windowSize)
        if ID3v2Header(head) != nil, let picture = ID3v2Pictures.front(in: source, limit: limit) { return picture }
        switch AudioSniffer.signature(head) {
        case .mp4?: return MP4Cover.first(in: source, limit: limit)
        case .flac?: return FLACPicture.front(inBlocksOf: source, limit: limit)
        case .ogg?: return OggPictures.front(in: source, limit: limit)
        default: return nil
        }
    }

    /// Of pictures found in turn as (type, bytes), the front cover, else the first.
    static func choose(_ pictures: some Sequence<(type: Int, bytes: () -> [UInt8]?)>) -> [UInt8]? {
        var first: [UInt8]?
        for picture in pictures {
            if picture.type == frontCover, let bytes = picture.bytes() { return bytes }
            if first == nil { first = picture.bytes() }
        }
        return first
    }
}
