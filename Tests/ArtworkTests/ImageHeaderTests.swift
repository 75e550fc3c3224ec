import Testing

@testable import Artwork

/// Formats and sizes read from the first bytes, as the formats' specifications lay them out.
@Suite struct ImageHeaderTests {
    @Test func eachFormatsSizeIsReadFromItsHeader() throws {
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 0x0B, 0xB8, 0, 0, 0x07, 0xD0, 8, 2, 0, 0, 0]
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x2C, 0x01, 0xC8, 0x00, 0, 0, 0]
        // An APP0 segment to skip, then a progressive frame (SOF2): height 480, width 640.
        let jpeg: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC2, 0, 17, 8, 0x01, 0xE0, 0x02, 0x80, 3]
            + [UInt8](repeating: 0, count: 12)
        let webp: [UInt8] =
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
            + [0x1F, 0x03, 0, 0x57, 0x02, 0] + [UInt8](repeating: 0, count: 4)
        let expected: [([UInt8], ImageFormat, Int, Int)] = [
            (png, .png, 3000, 2000), (gif, .gif, 300, 200), (jpeg, .jpeg, 640, 480), (webp, .webp, 800, 600),
        ]
        for (bytes, format, width, height) in expected {
            let header = try ImageHeader(bytes)
            #expect([header.width, header.height] == [width, height], "\(format)")
            #expect(header.format == format)
        }
    }

    @Test func aHeaderCutShortOrOfAnotherKindIsUnrecognized() {
        for bytes in [[0x89, 0x50, 0x4E, 0x47], [0xFF, 0xD8, 0xFF], Array("GIF89a".utf8), Array("%PDF-1.7".utf8)] {
            #expect(throws: ArtworkError.unrecognized) { try ImageHeader(bytes) }
        }
    }
}
