import Testing

@testable import Zlib

@Suite struct DeflateTests {
    private let text = Array(
        (0..<2_000).map { "Segment \($0): the zeppelin flew over Kraków again. " }.joined().utf8)

    @Test func inflatingGivesBackWhatWasDeflatedAtAFractionOfItsSize() throws {
        let deflated = try Deflate.compress(text)
        #expect(deflated.count < text.count / 4)
        // Far more than four times the deflated size: the output grows until it fits.
        #expect(try Deflate.decompress(deflated) == text)
        #expect(try Deflate.decompress(try Deflate.compress([])) == [])
    }

    @Test func damagedOrTooLargeDataIsAnErrorNotACrash() throws {
        let deflated = try Deflate.compress(text)
        #expect(throws: ZlibError.damaged) { try Deflate.decompress(Array(deflated.prefix(deflated.count / 2))) }
        var flipped = deflated
        flipped[flipped.count - 1] ^= 0xff  // the Adler-32 checksum
        #expect(throws: ZlibError.damaged) { try Deflate.decompress(flipped) }
        #expect(throws: ZlibError.damaged) { try Deflate.decompress(Array("plain text".utf8)) }
        #expect(throws: ZlibError.damaged) { try Deflate.decompress([]) }
        #expect(throws: ZlibError.tooLarge(limit: 10_000)) { try Deflate.decompress(deflated, limit: 10_000) }
    }
}
