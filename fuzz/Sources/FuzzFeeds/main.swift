import CFuzz
import Feeds

#if canImport(Glibc)
    import Glibc
#endif

/// One input: parse it as a feed and as OPML, and put every string read through the other
/// readers (dates, durations, trackers, HTML to text). Any crash, hang or sanitizer report is
/// a finding; errors are expected.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let feed = try? FeedParser(baseURL: "https://fuzz.example/feed.xml").parse(bytes) {
        for item in feed.items {
            _ = TrackingPrefix.strip(item.enclosure.url)
            _ = PlainText.render(html: item.description ?? "", width: 60)
        }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    _ = FeedDate.parse(text)
    _ = MediaDuration.seconds(text)
    _ = TrackingPrefix.strip(text)
    _ = PlainText.render(html: text, width: 40)
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv as UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
