import Foundation
import TestSupport
import Testing

@testable import Artwork

@Suite struct ArtworkFileTests {
    /// Writes artwork made from `image` and reads it back: its size (from the JPEG's own header)
    /// and its decoded pixels.
    func artwork(from image: Data) throws -> (size: (width: Int, height: Int), image: GDImage, mode: mode_t) {
        let directory = try TemporaryDirectory(prefix: "podcli-artwork")
        let path = directory.appending("artwork.jpg").path
        try ArtworkFile.write([UInt8](image), to: path, mode: 0o640)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        let size = try #require(TestImage.jpegSize(written))
        var info = stat()
        #expect(stat(path, &info) == 0)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["artwork.jpg"])
        let bytes = [UInt8](written)
        return (size, try GDImage(decoding: bytes, header: try ImageHeader(bytes)), info.st_mode & 0o7777)
    }

    /// Every pixel near the corners, the edges' middles and the centre is green: what was cut
    /// was the centred square, and nothing of the red or blue on either side of it.
    func expectAllGreen(_ image: GDImage, sourceline: SourceLocation = #_sourceLocation) {
        let last = image.width - 1
        for (x, y) in [
            (1, 1), (last - 1, 1), (1, last - 1), (last - 1, last - 1), (last / 2, last / 2), (1, last / 2),
            (last - 1, last / 2), (last / 2, 1), (last / 2, last - 1),
        ] {
            let rgb = image.rgb(x: x, y: y)
            let (r, g, b) = (rgb >> 16 & 0xFF, rgb >> 8 & 0xFF, rgb & 0xFF)
            #expect(
                r < 40 && g > 215 && b < 40, "pixel (\(x), \(y)) is \(String(rgb, radix: 16))",
                sourceLocation: sourceline)
        }
    }

    /// The test the issue asks for: a non-square cover becomes a square file of at most 600 px,
    /// showing the centre of the picture (wide and tall alike).
    @Test(arguments: [(1000, 700), (700, 1000)])
    func aNonSquareCoverBecomesASquareOfAtMost600Pixels(width: Int, height: Int) throws {
        let made = try artwork(from: TestImage.centredSquare(width: width, height: height))
        #expect(made.size.width == 600 && made.size.height == 600)
        #expect(made.mode == 0o640)
        expectAllGreen(made.image)
    }

    /// The same from a JPEG, the usual format of cover art (made by libgd from the PNG: the test
    /// has no JPEG encoder of its own).
    @Test func aNonSquareJPEGCoverToo() throws {
        let png = [UInt8](TestImage.centredSquare(width: 1200, height: 800))
        let jpeg = try GDImage(decoding: png, header: try ImageHeader(png)).jpeg(quality: 95)
        let header = try ImageHeader(jpeg)
        #expect(header.format == .jpeg && header.width == 1200 && header.height == 800)
        let made = try artwork(from: Data(jpeg))
        #expect(made.size.width == 600 && made.size.height == 600)
        expectAllGreen(made.image)
    }

    /// A small cover is cropped but never scaled up.
    @Test func aSmallCoverIsCroppedButNotEnlarged() throws {
        let made = try artwork(from: TestImage.centredSquare(width: 300, height: 200))
        #expect(made.size.width == 200 && made.size.height == 200)
        expectAllGreen(made.image)
    }

    @Test func theCropIsTheLargestCentredSquare() {
        func crop(_ width: Int, _ height: Int) -> [Int] {
            let crop = SquareCrop(width: width, height: height, maximumSide: 600)
            return [crop.x, crop.y, crop.side, crop.outputSide]
        }
        #expect(crop(1000, 700) == [150, 0, 700, 600])
        #expect(crop(700, 1001) == [0, 150, 700, 600])
        #expect(crop(3000, 3000) == [0, 0, 3000, 600])
        #expect(crop(51, 50) == [0, 0, 50, 50])
    }

    /// Bytes that are no image, a cut-off image, and one whose header claims more pixels than
    /// podcli decodes are refused before anything is written.
    @Test func brokenImagesAreRefusedAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory(prefix: "podcli-artwork")
        let path = directory.appending("artwork.jpg").path
        let png = [UInt8](TestImage.centredSquare(width: 40, height: 30))
        var huge = png
        huge.replaceSubrange(16..<24, with: [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20])  // 20,000 x 20,000
        let cases: [([UInt8], ArtworkError)] = [
            (Array("<html>not an image</html>".utf8), .unrecognized),
            ([], .unrecognized),
            (Array(png.prefix(png.count / 2)), .undecodable(format: .png)),
            (huge, .tooLarge(width: 20_000, height: 20_000)),
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected) { try ArtworkFile.write(bytes, to: path, mode: 0o600) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test func theErrorsSayWhatIsWrong() {
        #expect(ArtworkError.unrecognized.description == "the image is not PNG, JPEG, GIF or WebP")
        #expect(
            ArtworkError.undecodable(format: .jpeg).description == "the JPEG image is broken or cannot be decoded")
    }
}
