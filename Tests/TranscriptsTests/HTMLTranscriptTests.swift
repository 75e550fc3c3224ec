import Testing
import Transcripts

struct HTMLTranscriptTests {
    /// The namespace's example inside a page: `<cite>` speakers ("Alban :" as written there),
    /// `<time>` starts, `<p>` text with inline tags, entities and a comment; head and style text
    /// ignored.
    @Test func readsCiteTimeAndParagraphs() throws {
        let text = """
            <!DOCTYPE html>
            <html><head><title>Episode 1</title><style>p { color: red }</style></head><body>
            <cite>Kevin:</cite>
            <time>0:00</time>
            <p>We have an update <b>planned</b> &amp; <a href="x">ready</a><!-- <p>not this</p> --></p>
            <cite>Alban :</cite>
            <time>1:00:09</time>
            <p>You're triggering Tom<br>right now.</p>
            <p>Still Alban, no time.</p>
            <P>Tom: Named in the paragraph.
            </body></html>
            """
        let read = try transcript(text, .html)
        #expect(read.format == .html)
        #expect(
            described(read) == [
                "0.0-- Kevin: We have an update planned & ready", "3609.0-- Alban: You're triggering Tom right now.",
                "- Alban: Still Alban, no time.", "- Tom: Named in the paragraph.",
            ])
    }

    /// A paragraph ends where a browser ends it: at the next block (a page's navigation after an
    /// unclosed `<p>` is not what was said), not only at the next `<p>`.
    @Test func aParagraphLeftOpenEndsAtTheNextBlock() throws {
        let text = "<p>Kevin: First words<div>Share this episode</div><p>Second words<ul><li>Menu</ul>"
        #expect(described(try transcript(text, .html)) == ["- Kevin: First words", "- Kevin: Second words"])
    }

    @Test func malformedPagesAreOneProblemEach() {
        let cases: [(String, String)] = [
            ("", "it is empty"),
            ("<p>Hello</p><SCRIPT src=x></SCRIPT>", "it is a page with a <script>, not a transcript"),
            (
                "<html><script>document.write('<p>Hi</p>')</script><p>Text</p>",
                "it is a page with a <script>, not a transcript"
            ),
            ("<time>soon</time><p>Hi</p>", #""soon" in a <time> is not a time (m:ss or h:mm:ss)"#),
            ("<html><body><div>No paragraphs</div></body></html>", "it has no text"),
        ]
        for (text, reason) in cases {
            #expect(throws: TranscriptProblem(.html, reason), "\(text)") { try transcript(text, .html) }
        }
    }
}
