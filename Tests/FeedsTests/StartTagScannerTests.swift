import Testing

@testable import Feeds

@Suite struct StartTagScannerTests {
    /// A network hands the document over in pieces of any size: a code unit or the first four
    /// bytes cut between two pieces are read as one.
    @Test(arguments: [1, 3, 5, 4_097])
    func piecesOfAnySizeAreReadAsOneDocument(pieceSize: Int) {
        let attributes = (1...1_001).map { " Ģ\($0)=\"Ģ\"" }.joined()
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<rss\(attributes)></rss>"
        let bytes = xml.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        var scanner = StartTagScanner()
        var refusal: StartTagScanner.Refusal?
        for start in stride(from: 0, to: bytes.count, by: pieceSize) where refusal == nil {
            refusal = bytes[start..<min(start + pieceSize, bytes.count)].withUnsafeBytes { scanner.scan($0) }
        }
        #expect(refusal == .tooManyAttributes(line: 2))
    }

    /// An XML declaration too long to read is refused: its encoding could hide past any reader's reach.
    @Test func aDeclarationTooLongToReadIsRefused() {
        let xml = "<?xml version=\"1.\(String(repeating: "0", count: 2_000))\" encoding=\"UTF-7\"?><rss/>"
        var scanner = StartTagScanner()
        #expect(Array(xml.utf8).withUnsafeBytes { scanner.scan($0) } == .encoding(nil))
        #expect(
            FeedError.unreadableEncoding(nil).description
                == "not read: the XML declaration of the feed is longer than 1024 characters")
    }
}
