import Foundation

/// Images made by the tests, with no image library: PNG written by hand (stored deflate blocks,
/// so no zlib either), and the size read back from a JPEG's start-of-frame segment. Independent
/// of libgd, so what podcli's artwork is can be checked against them.
public enum TestImage {
    public static let red: UInt32 = 0xFF0000
    public static let green: UInt32 = 0x00FF00
    public static let blue: UInt32 = 0x0000FF

    /// An RGB PNG whose pixel (x, y) has colour `color(x, y)` (0xRRGGBB).
    public static func png(width: Int, height: Int, color: (Int, Int) -> UInt32) -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let c = color(x, y)
                raw += [UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)]
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    /// A picture whose centred square (the largest) is green, with red before it and blue after
    /// it (left and right of a wide picture, above and below a tall one): a centre crop is all
    /// green.
    public static func centredSquare(width: Int, height: Int) -> Data {
        let side = min(width, height)
        let start = ((width - side) / 2, (height - side) / 2)
        return png(width: width, height: height) { x, y in
            if x < start.0 || y < start.1 { return red }
            if x >= start.0 + side || y >= start.1 + side { return blue }
            return green
        }
    }

    /// A JPEG's width and height (from its first SOFn segment), nil when it is no JPEG.
    public static func jpegSize(_ data: Data) -> (width: Int, height: Int)? {
        let b = [UInt8](data)
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]))
            }
            i += 2 + length
        }
        return nil
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// zlib with "stored" (uncompressed) deflate blocks of at most 65,535 bytes.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }

    private static func crc32(_ data: [UInt8]) -> UInt32 {
        ~data.reduce(0xFFFF_FFFF) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// An ID3v2.3 tag holding APIC frames, to put in front of an MP3 (as a tagger would).
public enum ID3Tag {
    /// One APIC frame's content: picture type (3 = front cover), MIME type, image bytes.
    public struct Picture {
        public var type: UInt8
        public var mimeType: String
        public var data: Data
        public init(type: UInt8 = 3, mimeType: String = "image/png", data: Data) {
            self.type = type
            self.mimeType = mimeType
            self.data = data
        }
    }

    public static func with(_ pictures: [Picture]) -> Data {
        var frames = [UInt8]()
        for picture in pictures {
            // Text encoding ISO-8859-1, MIME type, picture type, empty description, data.
            let body = [0] + Array(picture.mimeType.utf8) + [0, picture.type, 0] + [UInt8](picture.data)
            let size = UInt32(body.count)
            frames += Array("APIC".utf8)
            frames += [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF), 0, 0]
            frames += body
        }
        // The tag's size is "syncsafe": 7 bits a byte.
        let size = frames.count
        let header: [UInt8] = [
            0x49, 0x44, 0x33, 3, 0, 0,
            UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F),
        ]
        return Data(header + frames)
    }

    /// `mp3` with a tag holding `pictures` in front, instead of the ID3v2 tag it had.
    public static func tagging(_ mp3: Data, with pictures: [Picture]) -> Data {
        let b = [UInt8](mp3)
        guard b.count > 10, b.starts(with: "ID3".utf8) else { return with(pictures) + mp3 }
        let size = b[6..<10].reduce(0) { $0 << 7 | Int($1) }
        return with(pictures) + mp3.dropFirst(10 + size)
    }
}
