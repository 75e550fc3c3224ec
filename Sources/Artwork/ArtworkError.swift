#if canImport(Glibc)
    import Glibc
#endif

/// Why an image could not become artwork, worded so a user can act on it.
public enum ArtworkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not PNG, JPEG, GIF or WebP (by its first bytes), or too short to tell.
    case unrecognized
    /// Larger than podcli decodes: a small file can claim a huge image.
    case tooLarge(width: Int, height: Int)
    /// libgd could not decode it (truncated, corrupt, or a variant it does not read).
    case undecodable(format: ImageFormat)
    /// libgd could not encode the result (out of memory).
    case encoding
    /// Writing the file failed (full disk, permissions).
    case storage(path: String, errno: Int32)
    /// libgd (libgd3) is not installed.
    case unavailable

    public var description: String {
        switch self {
        case .unrecognized:
            return "the image is not PNG, JPEG, GIF or WebP"
        case .tooLarge(let width, let height):
            return
                "the image is \(width)x\(height) pixels, more than podcli decodes (\(ImageHeader.maximumPixels) pixels)"
        case .undecodable(let format):
            return "the \(format.rawValue) image is broken or cannot be decoded"
        case .encoding:
            return "could not encode the artwork as JPEG (out of memory?)"
        case .storage(let path, let code):
            return "could not write \(path): \(String(cString: strerror(code)))"
        case .unavailable:
            return "libgd is not installed (apt-get install libgd3), so podcli makes no artwork"
        }
    }
}
