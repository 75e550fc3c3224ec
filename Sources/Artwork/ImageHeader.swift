/// The image formats podcli reads artwork in (what podcast apps accept, plus WebP).
public enum ImageFormat: String, Equatable, Sendable {
    case png = "PNG"
    case jpeg = "JPEG"
    case gif = "GIF"
    case webp = "WebP"
}

/// An image's format and size, read from its first bytes, before anything is decoded: libgd
/// would allocate whatever a header claims, and a few kilobytes of PNG can claim gigabytes.
public struct ImageHeader: Equatable, Sendable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int

    /// 6000 x 6000: twice the 3000 px podcast directories ask for, 144 MB decoded.
    public static let maximumPixels = 36_000_000

    /// - Throws: `ArtworkError.unrecognized` when the bytes are none of the formats, or their
    ///   header is cut off.
    public init(_ bytes: [UInt8]) throws(ArtworkError) {
        guard let (format, width, height) = Self.read(bytes), width > 0, height > 0 else { throw .unrecognized }
        self.format = format
        self.width = width
        self.height = height
    }

    private static func read(_ b: [UInt8]) -> (ImageFormat, Int, Int)? {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The IHDR chunk comes first: width and height, big-endian, at 16 and 20.
            guard b.count >= 24, b[12..<16].elementsEqual("IHDR".utf8) else { return nil }
            return (.png, bigEndian(b, 16, 4), bigEndian(b, 20, 4))
        }
        if b.starts(with: "GIF87a".utf8) || b.starts(with: "GIF89a".utf8) {
            guard b.count >= 10 else { return nil }
            return (.gif, littleEndian(b, 6, 2), littleEndian(b, 8, 2))
        }
        if b.starts(with: [0xFF, 0xD8]) { return jpeg(b) }
        if b.count >= 30, b.starts(with: "RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8) { return webp(b) }
        return nil
    }

    /// The size in the first start-of-frame segment (SOF0 to SOF15 but DHT, JPG and DAC).
    private static func jpeg(_ b: [UInt8]) -> (ImageFormat, Int, Int)? {
        var index = 2
        while index + 9 < b.count {
            guard b[index] == 0xFF else { return nil }
            let marker = b[index + 1]
            // Fill bytes, and markers with no length (TEM, RSTn).
            if marker == 0xFF {
                index += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += 2
                continue
            }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (.jpeg, bigEndian(b, index + 7, 2), bigEndian(b, index + 5, 2))
            }
            index += 2 + bigEndian(b, index + 2, 2)
        }
        return nil
    }

    /// The size in a WebP's first chunk: VP8X (extended), VP8L (lossless) or VP8 (lossy).
    private static func webp(_ b: [UInt8]) -> (ImageFormat, Int, Int)? {
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8X":
            return (.webp, littleEndian(b, 24, 3) + 1, littleEndian(b, 27, 3) + 1)
        case "VP8L":
            guard b[20] == 0x2F else { return nil }
            let bits = littleEndian(b, 21, 4)
            return (.webp, (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8 ":
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return (.webp, littleEndian(b, 26, 2) & 0x3FFF, littleEndian(b, 28, 2) & 0x3FFF)
        default:
            return nil
        }
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        b[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        b[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
