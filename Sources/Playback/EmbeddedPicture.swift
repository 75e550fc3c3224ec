import AudioFormats

/// The picture an episode's file carries: an ID3v2 front cover (APIC), an M4A's `covr`, a FLAC
/// PICTURE, a Vorbis or Opus METADATA_BLOCK_PICTURE (`EmbeddedPictures`). Read on the artwork's
/// thread from a descriptor of its own, so opening a decoder (and the first sound) never waits
/// for it.
public enum EmbeddedPicture {
    /// The largest picture taken, as for an image fetched from the feed (`ImageFetcher`): a
    /// picture larger than this is passed over unread.
    public static let limit = 10 * 1024 * 1024

    /// The picture's bytes, as stored (the format is whatever the tagger put there); nil when the
    /// file has none of at most `limit` bytes, or cannot be read.
    public static func read(from path: String, limit: Int = limit) -> [UInt8]? {
        guard let file = FileBytes(path: path) else { return nil }
        return EmbeddedPictures.front(in: file, limit: limit)
    }
}
