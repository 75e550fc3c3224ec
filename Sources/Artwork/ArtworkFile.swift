#if canImport(Glibc)
    import Glibc
#endif

/// Makes the artwork a lock screen shows from an image's bytes: the largest centred square,
/// at most `maximumSide` pixels, written as a JPEG file atomically (a reader sees the old file or
/// the new one, never part of one).
public enum ArtworkFile {
    /// What a lock screen or notification shows at most; more is memory and disk for nothing.
    public static let maximumSide = 600
    /// JPEG quality: no visible loss on cover art at a fraction of a PNG's size.
    static let quality = 88

    /// Writes the square made from `bytes` to `path`, with `mode`; returns its side in pixels.
    /// - Throws: `ArtworkError`; nothing is left at `path` then (an earlier file stays).
    @discardableResult
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t, maximumSide: Int = maximumSide
    ) throws(ArtworkError) -> Int {
        let header = try ImageHeader(bytes)
        guard header.width * header.height <= ImageHeader.maximumPixels else {
            throw .tooLarge(width: header.width, height: header.height)
        }
        let image = try GDImage(decoding: bytes, header: header)
        let crop = SquareCrop(width: image.width, height: image.height, maximumSide: maximumSide)
        let jpeg = try image.cropped(to: crop).jpeg(quality: quality)
        try replace(path, with: jpeg, mode: mode)
        return crop.outputSide
    }

    /// Writes a hidden temporary file beside `path` (hidden: the episode's directory takes any
    /// other name for a download), syncs it and renames it over `path`.
    private static func replace(_ path: String, with bytes: [UInt8], mode: mode_t) throws(ArtworkError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var template = Array((directory + "/.artwork-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .storage(path: path, errno: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: Int32 = 0
        if fchmod(descriptor, mode) != 0 { failure = errno }
        var written = 0
        while failure == 0 && written < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written)
            }
            if count < 0 && errno != EINTR { failure = errno }
            if count > 0 { written += count }
        }
        // Synced before the rename: after a crash, an empty file under the final name would be
        // taken for the artwork.
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .storage(path: path, errno: failure)
        }
    }
}
