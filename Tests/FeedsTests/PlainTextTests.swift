import Foundation
import Testing

@testable import Feeds

@Suite struct PlainTextTests {
    /// U+00A1...U+00BF are 0xC2 0xA1...0xBF in UTF-8: the lead byte of a no-break space, but not one.
    @Test(arguments: ["©", "® 2014", "a ©", "&amp; ©", "90°", "½ cup", "<p>John Doe ©</p>", "µs"])
    func latinOneSupplementCharactersAreText(text: String) {
        let expected = text.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "<p>", with: "")
            .replacingOccurrences(of: "</p>", with: "")
        #expect(PlainText.render(html: text) == expected)
    }

    @Test(arguments: [
        ("<p>One</p><p>Two</p>", "One\n\nTwo"),
        ("<p>One</p>\n\n\n<p>Two</p>", "One\n\nTwo"),
        ("<div>One</div><div>Two</div>", "One\nTwo"),
        ("One<br>Two<br/>Three<BR />Four", "One\nTwo\nThree\nFour"),
        ("One<br><br>Two", "One\n\nTwo"),
        ("One<br><br><br><br>Two", "One\n\nTwo"),
        ("<h1>Title</h1>Body", "Title\n\nBody"),
        ("Before<blockquote>Quoted</blockquote>After", "Before\n\nQuoted\n\nAfter"),
        ("Before<hr>After", "Before\n\nAfter"),
        ("<p><b>Bold</b> and <i>italic</i> and <span class=\"x\">span</span></p>", "Bold and italic and span"),
        ("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>", "a b\nc d"),
    ])
    func blocksBecomeLinesAndParagraphs(html: String, expected: String) {
        #expect(PlainText.render(html: html) == expected)
    }

    @Test(arguments: [
        ("<ul><li>One</li><li>Two</li></ul>", "• One\n• Two"),
        ("<p>Links:</p><ul>\n  <li>One</li>\n  <li>Two</li>\n</ul><p>After</p>", "Links:\n\n• One\n• Two\n\nAfter"),
        ("<ol><li>First<li>Second</ol>", "• First\n• Second"),
        ("<ul><li>Outer<ul><li>Inner</li></ul></li><li>Next</li></ul>", "• Outer\n  • Inner\n• Next"),
        ("<ul><li><p>In a paragraph</p></li><li><p>Another</p></li></ul>", "• In a paragraph\n\n• Another"),
    ])
    func listItemsAreBullets(html: String, expected: String) {
        #expect(PlainText.render(html: html) == expected)
    }

    @Test(arguments: [
        ("<a href=\"https://example.com/x\">our site</a>", "our site (https://example.com/x)"),
        ("See <a href='https://example.com'>this</a>.", "See this (https://example.com)."),
        ("<a href=https://example.com/x>bare</a>", "bare (https://example.com/x)"),
        ("<a href=\"https://example.com/\">https://example.com/</a>", "https://example.com/"),
        ("<a href=\"https://example.com/\">example.com</a>", "example.com"),
        ("<a href=\"https://Example.com\">https://example.com/</a>", "https://example.com/"),
        ("<a href=\"mailto:host@example.com\">host@example.com</a>", "host@example.com"),
        ("<a href=\"https://example.com/?a=1&amp;b=2\">link</a>", "link (https://example.com/?a=1&b=2)"),
        ("<a href=\"#chapter\">Chapter</a>", "Chapter"),
        ("<a href=\"javascript:void(0)\">Click</a>", "Click"),
        ("<a name=\"anchor\">Named</a>", "Named"),
        ("<a href=\"https://example.com\"><img src=\"x.png\"></a>", ""),
        ("<a href=\"https://a.com\">unclosed link", "unclosed link (https://a.com)"),
        ("<a href=\"https://a.com\">one<a href=\"https://b.com\">two</a>", "one (https://a.com)two (https://b.com)"),
        ("<a title=\"a > b\" href=\"https://x.com\">t</a>", "t (https://x.com)"),
        ("<a\nhref = \"https://x.com\"\n>t</a>", "t (https://x.com)"),
    ])
    func linksShowTheirTarget(html: String, expected: String) {
        #expect(PlainText.render(html: html) == expected)
    }

    @Test(arguments: [
        ("Tom &amp; Jerry", "Tom & Jerry"),
        ("&lt;tag&gt; &quot;q&quot; &apos;a&apos;", "<tag> \"q\" 'a'"),
        ("caf&eacute; caf&#233; caf&#xE9; caf&#XE9;", "café café café café"),
        ("&mdash;&ndash;&hellip;&rsquo;&lsquo;&rdquo;&ldquo;", "—–…’‘”“"),
        ("&copy; &reg; &trade; &euro; &pound; &frac12; &deg;", "© ® ™ € £ ½ °"),
        ("&Eacute;&Uuml;&szlig;&ntilde;&oslash;&AElig;", "ÉÜßñøÆ"),
        ("it&#146;s &#147;quoted&#148;", "it’s “quoted”"),
        ("&#128512; &#x1F600;", "😀 😀"),
        ("&#0; &#xD800; &#1114112; &#99999999999999999999;", "\u{FFFD} \u{FFFD} \u{FFFD} \u{FFFD}"),
        ("&#233 no semicolon", "é no semicolon"),
        ("AT&amp T and &copy 2024", "AT& T and © 2024"),
        ("Q&A, a & b, &unknown; &;", "Q&A, a & b, &unknown; &;"),
        ("&ampersand &amplifier;", "&ampersand &amplifier;"),
        ("trailing &", "trailing &"),
        ("&#", "&#"),
        ("&#x;", "&#x;"),
        ("soft&shy;hyphen", "softhyphen"),
        ("&lt;p&gt;not a tag&lt;/p&gt;", "<p>not a tag</p>"),
        ("&AMP; &LT;", "& <"),
    ])
    func decodesCharacterReferences(html: String, expected: String) {
        #expect(PlainText.render(html: html) == expected)
    }

    @Test(arguments: [
        ("<p>  lots   of\n\tspace  </p>", "lots of space"),
        ("<p>a&nbsp;&nbsp;b</p>", "a b"),
        ("<p>&nbsp;</p><p>after spacer</p>", "after spacer"),
        ("<p>a\u{A0}b</p>", "a b"),
        ("\n\n  <p>trimmed</p>  \n", "trimmed"),
        ("<p></p><p></p><div></div>", ""),
        ("", ""),
        ("<b>Bold</b><i>Italic</i>", "BoldItalic"),
        ("<p>Line one\nstill line one</p>", "Line one still line one"),
    ])
    func whitespaceCollapsesLikeABrowser(html: String, expected: String) {
        #expect(PlainText.render(html: html) == expected)
    }

    @Test(arguments: [
        ("Plain text stays.", "Plain text stays."),
        ("First paragraph.\n\nSecond paragraph.", "First paragraph.\n\nSecond paragraph."),
        ("Line one\nLine two\r\nLine three\rLine four", "Line one\nLine two\nLine three\nLine four"),
        ("Too\n\n\n\n\nmany blank lines", "Too\n\nmany blank lines"),
        ("  spaces   inside  \n  and   around  ", "spaces inside\nand around"),
        ("A\n \t \nB", "A\n\nB"),
        ("Only inline: <a href=\"https://x.com\">x</a>\nNext line", "Only inline: x (https://x.com)\nNext line"),
        ("5 < 6 and 7 > 3", "5 < 6 and 7 > 3"),
        ("I <3 podcasts", "I <3 podcasts"),
        ("Fish & chips", "Fish & chips"),
    ])
    func plainTextKeepsItsLines(html: String, expected: String) {
        #expect(PlainText.render(html: html) == expected)
    }

    @Test(arguments: [
        ("<script>alert('<p>x</p>')</script>Visible", "Visible"),
        ("<style type=\"text/css\">p { color: red }</style><p>Visible</p>", "Visible"),
        ("<SCRIPT>x</SCRIPT >Visible", "Visible"),
        ("Before<script>never closed <p>lost</p>", "Before"),
        ("Before<!-- a comment <p>inside</p> -->After", "BeforeAfter"),
        ("Before<!-- never closed", "Before"),
        ("<![CDATA[<b>raw</b> &amp;]]>", "<b>raw</b> &amp;"),
        ("<![CDATA[ spaced\u{A0}\u{A0}out\u{A0}]]>", "spaced out"),
        ("<?xml version=\"1.0\"?><!DOCTYPE html><p>Doc</p>", "Doc"),
    ])
    func dropsWhatIsNotText(html: String, expected: String) {
        #expect(PlainText.render(html: html) == expected)
    }

    @Test(arguments: [
        ("<p>Unclosed <b>bold", "Unclosed bold"),
        ("<p>Stray < here</p>", "Stray < here"),
        ("<p>Stray <", "Stray <"),
        ("<p>text <b", "text <b"),
        ("<p>text <b class=\"never closed>more text", "text more text"),
        ("a <b c", "a <b c"),
        ("<p>x</p></p></div></li></ul></a>", "x"),
        ("</>", "</>"),
        ("<>", "<>"),
        ("<p>&", "&"),
        ("<<<<p>>>>", "<<<\n\n>>>"),
        ("<a href=\"x", "<a href=\"x"),
        ("<p>cut mid-entity &eac", "cut mid-entity &eac"),
    ])
    func survivesMalformedHTML(html: String, expected: String) {
        #expect(PlainText.render(html: html) == expected)
    }

    /// What libxml2's HTML parser reads as a browser does where a tag scanner could not: elements
    /// closed by what follows them (a link ends with its paragraph), end tags with no
    /// start (a stray `</ol>` does not end a list).
    @Test(arguments: [
        ("<ul><li>a<ul><li>b</ol><li>c</ul></ul>", "• a\n  • b\n  • c"),
        ("<ol><li>a</ul></ul><li>b</ol>After", "• a\n• b\n\nAfter"),
        ("<p><a href=\"https://u.com\">x</p><p>y</p>", "x (https://u.com)\n\ny"),
    ])
    func readsMalformedHTMLAsABrowser(html: String, expected: String) {
        #expect(PlainText.render(html: html) == expected)
    }

    @Test func aRealisticDescription() {
        let html = """
            <p>In this episode we talk to <strong>Jane Doe</strong> about caf&eacute; culture &amp; more.</p>
            <p>Links:</p>
            <ul>
              <li><a href="https://example.com/jane">Jane&rsquo;s site</a></li>
              <li><a href="https://example.com/book">https://example.com/book</a></li>
            </ul>
            <p>Support the show&nbsp;&mdash; <a href="https://example.com/support">become a member</a>.</p>
            """
        #expect(
            PlainText.render(html: html) == """
                In this episode we talk to Jane Doe about café culture & more.

                Links:

                • Jane’s site (https://example.com/jane)
                • https://example.com/book

                Support the show — become a member (https://example.com/support).
                """)
    }

    @Test(arguments: [
        ("one two three four five six", 10, "one two\nthree four\nfive six"),
        ("one two three", 13, "one two three"),
        ("supercalifragilistic is long", 10, "supercalifragilistic\nis long"),
        ("<p>first para here</p><p>second</p>", 10, "first para\nhere\n\nsecond"),
        ("<ul><li>a bullet that wraps around</li></ul>", 12, "• a bullet\n  that wraps\n  around"),
        ("<ul><li>a<ul><li>nested bullet wraps</li></ul></li></ul>", 12, "• a\n  • nested\n    bullet\n    wraps"),
        ("café café café", 9, "café café\ncafé"),
        ("e\u{301}e\u{301}e\u{301} abc", 7, "e\u{301}e\u{301}e\u{301} abc"),
        ("one two", 0, "one two"),
        ("one two", -3, "one two"),
        ("x y", 1, "x\ny"),
    ])
    func wrapsAtWordBoundaries(html: String, width: Int, expected: String) {
        #expect(PlainText.render(html: html, width: width) == expected)
    }

    @Test func wrappedLinesFitTheWidth() {
        let words = (0..<500).map { String(repeating: "w", count: $0 % 9 + 1) }.joined(separator: " ")
        let wrapped = PlainText.render(html: "<p>\(words)</p>", width: 40)
        for line in wrapped.split(separator: "\n") {
            #expect(line.count <= 40)
        }
        #expect(wrapped.replacing("\n", with: " ") == words)
    }

    /// Inputs that would make a naive scanner go back over the text for every `<` or `&`; each
    /// must finish in about the time it takes to read it.
    enum Pathology: String, CaseIterable, CustomTestStringConvertible {
        case unclosedTags, unclosedQuotes, bangs, ampersands, longEntityNames, deepBlocks, quoteThenBrackets, scripts

        var testDescription: String { rawValue }

        var html: String {
            switch self {
            case .unclosedTags: String(repeating: "<a ", count: 50_000)
            case .unclosedQuotes: String(repeating: "<a href=\"", count: 50_000)
            case .bangs: String(repeating: "<!", count: 50_000)
            case .ampersands: String(repeating: "&", count: 100_000)
            case .longEntityNames: String(repeating: "&abcdefghijklmnop", count: 20_000)
            case .deepBlocks: String(repeating: "<p>", count: 50_000) + String(repeating: "<li>x", count: 50_000)
            case .quoteThenBrackets: "<a href='" + String(repeating: "x>", count: 50_000)
            case .scripts: String(repeating: "<script>", count: 50_000)
            }
        }
    }

    @Test(arguments: Pathology.allCases)
    func pathologicalInputsStayLinear(_ pathology: Pathology) {
        let html = pathology.html
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = PlainText.render(html: html, width: 80) }
        // Generous for a debug build on a slow machine; quadratic behaviour takes minutes here.
        #expect(elapsed < .seconds(5))
    }
}
