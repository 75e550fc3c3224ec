import HTML
import Testing

struct HTMLDocumentTests {
    @Test func elementsAndTextInDocumentOrder() {
        #expect(
            HTMLDocument.events(#"<P CLASS="x">a &amp; <b>b</b></p>"#) == [
                .start(name: "p", attributes: [HTMLAttribute(name: "class", value: "x")]), .text("a & "),
                .start(name: "b", attributes: []), .text("b"), .end(name: "b"), .end(name: "p"),
            ])
    }

    /// libxml2 closes what is left open and ignores an end tag with no start, as a browser does.
    @Test func tagsLeftOpenOrStrayAreBalanced() {
        #expect(
            HTMLDocument.events("<ul><li>a<li>b") == [
                .start(name: "ul", attributes: []), .start(name: "li", attributes: []), .text("a"), .end(name: "li"),
                .start(name: "li", attributes: []), .text("b"), .end(name: "li"), .end(name: "ul"),
            ])
        #expect(
            HTMLDocument.events("<p>x</ol></div></p>") == [
                .start(name: "p", attributes: []), .text("x"), .end(name: "p"),
            ])
    }

    /// Only what the document wrote: not the `html`, `body` and `<p>` libxml2 adds around text.
    @Test func impliedElementsAreNotReported() {
        #expect(
            HTMLDocument.events("text<div>x</div>") == [
                .text("text"), .start(name: "div", attributes: []), .text("x"), .end(name: "div"),
            ])
        #expect(
            HTMLDocument.events("<html><head><title>T</title></head><body>b</body></html>") == [
                .start(name: "title", attributes: []), .text("T"), .end(name: "title"), .text("b"),
            ])
    }

    @Test func attributesAreDecodedAndTrimmed() {
        let events = HTMLDocument.events(#"<a href=" ?a=1&amp;b=2&#38;c&AMP;d " title='a > b' hidden>x</a>"#)
        guard case .start(name: "a", let attributes) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(attributes.value(of: "href") == "?a=1&b=2&c&d")
        #expect(attributes.value(of: "title") == "a > b")
        #expect(attributes.contains(HTMLAttribute(name: "hidden", value: nil)))
    }

    /// Scripts, styles, comments (with `>` and tags in them), doctypes and processing
    /// instructions are not text.
    @Test func whatIsNotTextIsNotReported() {
        #expect(
            HTMLDocument.events(
                "<?xml version=\"1.0\"?><!DOCTYPE html><!-- a > b <p>c</p> --><script>if (a</b) x</script>"
                    + "<style>p > i { }</style>y")
                == [
                    .start(name: "script", attributes: []), .end(name: "script"), .start(name: "style", attributes: []),
                    .end(name: "style"), .text("y"),
                ])
    }

    /// podcli's reading where libxml2 2.9 reads otherwise: the HTML standard's references, a `<`
    /// no `>` closes, CDATA sections, NUL.
    @Test(arguments: [
        ("it&#146;s &AMP; &copy 2024 &#0;", "it’s & © 2024 \u{FFFD}"),
        ("a <b c", "a <b c"),
        ("</> <> 5 < 6", "</> <> 5 < 6"),
        ("<![CDATA[<b>raw</b> &amp;]]>", "<b>raw</b> &amp;"),
        ("a\u{0}b", "a\u{FFFD}b"),
    ])
    func textAsPodcliReadsIt(html: String, text: String) {
        #expect(HTMLDocument.events(html) == [.text(text)])
    }

    /// The encoding is UTF-8, whatever the document says.
    @Test func aMetaCharsetDoesNotChangeTheEncoding() {
        #expect(
            HTMLDocument.events(#"<meta charset="iso-8859-1"><p>café</p>"#).filter { $0 == .text("café") }.count == 1)
    }

    /// Deep nesting and stray end tags would cost libxml2 time growing with the square of the
    /// depth: reading stops at 256 open elements, keeping what came before.
    @Test func deepNestingIsReadUpToALimit() {
        let html = "text" + String(repeating: "<b>", count: 50_000) + String(repeating: "</i>", count: 50_000)
        var events: [HTMLEvent] = []
        let elapsed = ContinuousClock().measure { events = HTMLDocument.events(html) }
        #expect(elapsed < .seconds(2))
        #expect(events.first == .text("text"))
        #expect(events.filter { $0 == .start(name: "b", attributes: []) }.count < 256)
    }
}
