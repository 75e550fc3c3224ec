import CMPG123

/// The picture an MP3 carries in its ID3v2 tag (APIC): the front cover when there is one, else
/// the first. Read on a libmpg123 handle of its own, so opening a `Decoder` (and the first sound)
/// never waits for it.
public enum EmbeddedPicture {
    /// APIC picture type 3, "Cover (front)".
    static let frontCover: Int8 = 3

    /// The picture's bytes, as stored (the format is whatever the tagger put there); nil when the
    /// file has none, or cannot be read as MPEG audio far enough to find its tag.
    public static func read(from path: String) -> [UInt8]? {
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else { return nil }
        defer { mpg123_delete(handle) }
        // Pictures are kept only when asked for; the end of the file (an ID3v1 tag, the length)
        // is of no interest here.
        let flags = MPG123_QUIET.rawValue | MPG123_PICTURE.rawValue | MPG123_NO_PEEK_END.rawValue
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(flags), 0)
        guard mpg123_open(handle, path) == MPG123_OK.rawValue else { return nil }
        defer { mpg123_close(handle) }
        // Finding the first frame reads the ID3v2 tag in front of it.
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        guard mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue,
            mpg123_meta_check(handle) & MPG123_ID3 != 0
        else { return nil }
        var v1: UnsafeMutablePointer<mpg123_id3v1>?
        var v2: UnsafeMutablePointer<mpg123_id3v2>?
        guard mpg123_id3(handle, &v1, &v2) == MPG123_OK.rawValue, let tag = v2?.pointee, let first = tag.picture
        else { return nil }
        let pictures = UnsafeBufferPointer(start: first, count: tag.pictures).filter { $0.size > 0 && $0.data != nil }
        guard let picture = pictures.first(where: { $0.type == frontCover }) ?? pictures.first else { return nil }
        return Array(UnsafeBufferPointer(start: picture.data, count: picture.size))
    }
}
