import Foundation
import Testing

@testable import Feeds

@Suite struct FeedParserTests {
    let parser = FeedParser(baseURL: "https://example.com/podcast/feed.xml")

    func parse(_ xml: String) throws -> FeedDocument { try parser.parse(Array(xml.utf8)) }

    func rss(_ items: String, channel: String = "", namespaces: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \(namespaces)>
        <channel><title>Show</title>\(channel)
        \(items)
        </channel></rss>
        """
    }

    @Test func readsTheITunesFieldsOfAChannelAndItsItems() throws {
        let feed = try parse(
            rss(
                """
                <item>
                  <title>  Episode
                     One </title>
                  <guid isPermaLink="false"> abc-1 </guid>
                  <pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate>
                  <enclosure url="https://cdn.example.com/one.mp3?a=1&amp;b=2" length="1234" type="audio/mpeg"/>
                  <itunes:duration>1:02:03</itunes:duration>
                  <itunes:episode>7</itunes:episode><itunes:season>2</itunes:season>
                  <itunes:episodeType>Trailer</itunes:episodeType><itunes:explicit>yes</itunes:explicit>
                  <itunes:image href="ep.jpg"/>
                  <itunes:author> Guest
                     Host </itunes:author>
                  <description>&lt;p&gt;Short&lt;/p&gt;</description>
                </item>
                """,
                channel: """
                    <link>https://example.com/</link><itunes:author>Jane</itunes:author>
                    <itunes:image href="https://example.com/art.jpg"/><itunes:type>serial</itunes:type>
                    <itunes:explicit>false</itunes:explicit><language>en-us</language>
                    <itunes:new-feed-url>https://new.example.com/feed</itunes:new-feed-url>
                    """))
        #expect(feed.title == "Show")
        #expect(feed.author == "Jane")
        #expect(feed.imageURL == "https://example.com/art.jpg")
        #expect(feed.isSerial)
        #expect(feed.explicit == false)
        #expect(feed.language == "en-us")
        #expect(feed.newFeedURL == "https://new.example.com/feed")
        let item = try #require(feed.items.first)
        #expect(item.title == "Episode One")
        #expect(item.guid == "abc-1")
        #expect(item.published == 1_704_189_600)
        #expect(
            item.enclosure
                == Enclosure(url: "https://cdn.example.com/one.mp3?a=1&b=2", length: 1234, type: "audio/mpeg"))
        #expect(item.duration == 3723)
        #expect(item.episodeNumber == 7)
        #expect(item.seasonNumber == 2)
        #expect(item.episodeType == "trailer")
        #expect(item.explicit == true)
        #expect(item.imageURL == "https://example.com/podcast/ep.jpg")
        #expect(item.description == "<p>Short</p>")
        // The item's own author, not the channel's.
        #expect(item.author == "Guest Host")
        #expect(feed.author == "Jane")
    }

    @Test func anItunesPrefixBoundToAnotherNameOrNotDeclaredAtAllStillCounts() throws {
        let other = try parse(
            """
            <rss xmlns:it="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
            <item><enclosure url="https://x/a.mp3"/><it:duration>61:08</it:duration></item></channel></rss>
            """)
        #expect(other.items.first?.duration == 3668)
        let undeclared = try parse(
            """
            <rss><channel><title>T</title><item><enclosure url="https://x/a.mp3"/>
            <itunes:duration>90</itunes:duration></item></channel></rss>
            """)
        #expect(undeclared.items.first?.duration == 90)
        #expect(!undeclared.warnings.isEmpty)
    }

    @Test(arguments: [
        "https://podcastindex.org/namespace/1.0",
        "https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md",
    ])
    func readsPodcastingTwoPointOhUnderBothNamespaceURIs(uri: String) throws {
        let feed = try parse(
            rss(
                """
                <item><enclosure url="https://x/a.mp3" type="audio/mpeg"/>
                  <podcast:chapters url="https://x/ch.json" type="application/json+chapters"/>
                  <podcast:transcript url="/t.srt" type="application/srt" language="en"/>
                  <podcast:transcript url="https://x/t.vtt" type="text/vtt" rel="captions"/>
                  <podcast:person role="host" href="https://jane.example" img="j.png">Jane Doe</podcast:person>
                </item>
                """,
                channel: "<podcast:guid>917393e3-1b1e-5cef-ace4-edaa54e1f810</podcast:guid>",
                namespaces: "xmlns:podcast=\"\(uri)\""))
        #expect(feed.podcastGUID == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        let item = try #require(feed.items.first)
        #expect(item.chaptersURL == "https://x/ch.json")
        #expect(
            item.transcripts == [
                Transcript(url: "https://example.com/t.srt", type: "application/srt", language: "en"),
                Transcript(url: "https://x/t.vtt", type: "text/vtt", rel: "captions"),
            ])
        #expect(
            item.persons == [
                Person(
                    name: "Jane Doe", role: "host", href: "https://jane.example",
                    image: "https://example.com/podcast/j.png")
            ])
    }

    @Test func readsPodloveSimpleChapters() throws {
        let feed = try parse(
            rss(
                """
                <item><enclosure url="https://x/a.mp3"/>
                <psc:chapters version="1.2">
                  <psc:chapter start="0" title="Intro"/>
                  <psc:chapter start="01:02" title="Two" href="https://x/two"/>
                  <psc:chapter start="01:02:03.400" title="Three" image="c.jpg"/>
                </psc:chapters></item>
                """, namespaces: #"xmlns:psc="http://podlove.org/simple-chapters""#))
        let chapters = try #require(feed.items.first).chapters
        try #require(chapters.count == 3)
        #expect(chapters.map(\.title) == ["Intro", "Two", "Three"])
        #expect(chapters.map(\.start) == [0, 62, 3723.4])
        #expect(chapters[1].url == "https://x/two")
        #expect(chapters[2].image == "https://example.com/podcast/c.jpg")
    }

    @Test func readsAtomEntriesWithEnclosureLinks() throws {
        let feed = try parse(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Show</title>
              <link rel="alternate" href="https://example.com/"/><author><name>Ann</name></author>
              <entry><title>First</title><id>urn:uuid:1</id>
                <updated>2024-01-03T00:00:00Z</updated><published>2024-01-02T12:00:00+02:00</published>
                <link rel="alternate" href="https://example.com/first"/>
                <link rel="enclosure" href="media/first.mp3" length="99" type="audio/mpeg"/>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Hello <b>world</b></div></content>
              </entry>
              <entry><title>Only updated</title><id>urn:uuid:2</id><updated>2024-01-05T00:00:00Z</updated>
                <link rel="enclosure" href="https://x/2.mp3"/></entry>
              <entry><title>No audio</title><id>urn:uuid:3</id></entry>
            </feed>
            """)
        #expect(feed.title == "Atom Show")
        #expect(feed.author == "Ann")
        #expect(feed.link == "https://example.com/")
        #expect(feed.items.count == 2)
        #expect(feed.itemsWithoutEnclosure == 1)
        let first = feed.items[0]
        #expect(first.guid == "urn:uuid:1")
        #expect(first.link == "https://example.com/first")
        #expect(
            first.enclosure
                == Enclosure(url: "https://example.com/podcast/media/first.mp3", length: 99, type: "audio/mpeg"))
        #expect(first.published == 1_704_189_600)
        #expect(first.description?.contains("Hello") == true && first.description?.contains("world") == true)
        #expect(feed.items[1].published == 1_704_412_800)
    }

    /// A root `<feed>` that declares no namespace (feedparser reads it as Atom) is Atom, names
    /// and all; other XML without a namespace is still not a feed.
    @Test func anAtomFeedWithoutItsNamespaceIsReadAsAtom() throws {
        let feed = try parse(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <feed><title>Bare Atom</title><author><name>Bo</name></author>
              <entry><title>One</title><id>urn:uuid:9</id><published>2024-01-02T00:00:00Z</published>
                <link rel="enclosure" href="media/one.m4a" length="42" type="audio/x-m4a"/></entry>
            </feed>
            """)
        #expect(feed.title == "Bare Atom")
        #expect(feed.author == "Bo")
        #expect(feed.items.count == 1)
        #expect(feed.items[0].guid == "urn:uuid:9")
        #expect(feed.items[0].published == 1_704_153_600)
        #expect(
            feed.items[0].enclosure
                == Enclosure(url: "https://example.com/podcast/media/one.m4a", length: 42, type: "audio/x-m4a"))
        #expect(throws: FeedError.notAFeed(root: "catalog")) { try parse("<catalog><title>x</title></catalog>") }
    }

    @Test func prefersAnAudioEnclosureAndFallsBackToMediaRSS() throws {
        let feed = try parse(
            rss(
                """
                <item><title>Both</title>
                  <enclosure url="https://x/v.mp4" type="video/mp4"/><enclosure url="https://x/a.mp3" type="audio/mpeg"/>
                </item>
                <item><title>Media</title>
                  <media:group><media:content url="https://x/m.mp4" type="video/mp4"/>
                  <media:content url="https://x/m.mp3" type="audio/mpeg" fileSize="5"/></media:group>
                </item>
                <item><title>Empty url</title><enclosure url="  " type="audio/mpeg"/></item>
                <podcast:liveItem status="live"><title>Live</title><enclosure url="https://x/live.mp3"/></podcast:liveItem>
                """,
                namespaces:
                    #"xmlns:media="http://search.yahoo.com/mrss/" xmlns:podcast="https://podcastindex.org/namespace/1.0""#
            ))
        #expect(feed.items.map(\.enclosure.url) == ["https://x/a.mp3", "https://x/m.mp3"])
        #expect(feed.itemsWithoutEnclosure == 1)
    }

    @Test func anItemWithoutATitleIsNamedAfterItsFile() throws {
        let feed = try parse(rss(#"<item><enclosure url="https://x/shows/My%20Episode.ogg?x=1"/></item>"#))
        #expect(feed.items.first?.title == "My Episode.ogg")
    }

    @Test func itemsSharingAGuidAreAllKept() throws {
        let feed = try parse(
            rss(
                """
                <item><guid>same</guid><enclosure url="https://x/1.mp3"/></item>
                <item><guid>same</guid><enclosure url="https://x/2.mp3"/></item>
                """))
        #expect(feed.items.map(\.enclosure.url) == ["https://x/1.mp3", "https://x/2.mp3"])
    }

    // MARK: Encodings

    @Test func readsTheEncodingDeclaredInTheProlog() throws {
        var bytes = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><title>S"#.utf8)
        bytes += [0xE8, 0x72, 0x69, 0x65, 0x73]  // "èries" in Latin-1
        bytes += Array("</title></channel></rss>".utf8)
        #expect(try parser.parse(bytes).title == "Sèries")
    }

    @Test func readsUTF16WithAByteOrderMark() throws {
        let xml = #"<?xml version="1.0" encoding="UTF-16"?><rss><channel><title>Ελληνικά</title></channel></rss>"#
        let bytes: [UInt8] = [0xFF, 0xFE] + Array(xml.data(using: .utf16LittleEndian)!)
        #expect(try parser.parse(bytes).title == "Ελληνικά")
    }

    /// UTF-16 in either byte order (told by `<?` alone), with a tag of 1,000 attributes as the
    /// limit allows, and the ASCII-based encodings of real feeds.
    @Test(arguments: [false, true])
    func readsUTF16WithoutAByteOrderMark(bigEndian: Bool) throws {
        let attributes = (1...998).map { " Ģ\($0)=\"Ģ\"" }.joined()
        let xml = rss("<item><title>Ελληνικά</title><enclosure url=\"https://x/a.mp3\"\(attributes)/></item>")
            .replacingOccurrences(of: "UTF-8", with: bigEndian ? "UTF-16BE" : "utf-16")
        #expect(try parser.parse(Self.utf16(xml, bigEndian: bigEndian)).items.map(\.title) == ["Ελληνικά"])
    }

    @Test(arguments: [
        ("windows-1252", [0x93, 0x53, 0x94] as [UInt8], "“S”"), ("ISO_8859-15", [0xA4], "€"),
        ("Shift_JIS", [0x83, 0x5C, 0x83, 0x5D, 0x95, 0x5C], "ソゾ表"), ("EUC-JP", [0xA5, 0xBD], "ソ"),
        ("GB18030", [0x81, 0x30, 0x81, 0x30], "\u{80}"), ("KOI8-R", [0xC1], "а"), ("us-ascii", [0x41], "A"),
        ("macintosh", [0x8E], "é"), ("TIS-620", [0xA1], "ก"), ("IBM850", [0x82], "é"),
        ("Windows-31J", [0x83, 0x5C], "ソ"), ("CP949", [0xB0, 0xA1], "가"),
    ])
    func readsTheASCIIBasedEncodings(name: String, title: [UInt8], expected: String) throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"\(name)\"?><rss><channel><title>".utf8) + title
        bytes += Array("</title><item><title><![CDATA[".utf8) + title + Array("]]></title>".utf8)
        bytes += Array("<enclosure url=\"https://x/a.mp3\"/></item></channel></rss>".utf8)
        let feed = try parser.parse(bytes)
        #expect(feed.title == expected && feed.items.map(\.title) == [expected], "\(name)")
    }

    @Test func toleratesABlankLineAndAByteOrderMarkBeforeTheDeclaration() throws {
        let xml = "\n  \r\n<?xml version=\"1.0\"?><rss><channel><title>T</title></channel></rss>"
        #expect(try parse(xml).title == "T")
        #expect(try parser.parse([0xEF, 0xBB, 0xBF] + Array(xml.utf8)).title == "T")
    }

    // MARK: Safety

    @Test func neverResolvesExternalEntities() throws {
        let secret = try TemporaryFile(contents: "TOP-SECRET-CONTENT")
        let feed = try parse(
            """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file://\(secret.path)">]>
            <rss><channel><title>A&xxe;B</title><item><title>&xxe;</title><enclosure url="https://x/a.mp3"/></item>
            </channel></rss>
            """)
        #expect(!feed.title.contains("TOP-SECRET"))
        #expect(feed.items.allSatisfy { !$0.title.contains("TOP-SECRET") })
    }

    @Test func doesNotExpandEntityBombs() throws {
        var entities = #"<!ENTITY a0 "lollollollollollollollollollol">"#
        for level in 1...10 {
            entities += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        let start = ContinuousClock.now
        let feed = try? parse(
            "<?xml version=\"1.0\"?><!DOCTYPE rss [\(entities)]><rss><channel><title>&a10;</title></channel></rss>")
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect((feed?.title.count ?? 0) < 1000)
    }

    /// libxml2 compares every attribute of an element with every other (issue 22: 200,000 on one
    /// element took 36 s): a start tag of more than 1,000 is refused before libxml2 reads it,
    /// in well under a second, with the line it is on.
    @Test func aStartTagOfAbsurdlyManyAttributesIsRefusedAtOnce() throws {
        let attributes = (1...200_000).map { " a\($0)=\"\($0)\"" }.joined()
        let feed = rss("<item><title>x</title>\n<enclosure url=\"https://x/a.mp3\"\(attributes)/></item>")
        let start = ContinuousClock.now
        #expect(throws: FeedError.tooManyAttributes(line: 5, limit: 1_000)) { try parse(feed) }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(
            FeedError.tooManyAttributes(line: 5, limit: 1_000).description
                == "not read: an element at line 5 of the feed has more than 1000 attributes")
    }

    /// The count reads UTF-16 in its code units (issue 22 review: in UTF-16 `Ģ` is the bytes 22
    /// 01, and a count of bytes took its 0x22 for a quote, so with one in each name and value
    /// no `=` was counted): 200,000 such attributes are refused at once, told as libxml2 tells
    /// UTF-16, by `<?` (little-endian) and by a byte order mark (big-endian).
    @Test(arguments: [false, true])
    func aStartTagOfAbsurdlyManyAttributesInUTF16IsRefusedAtOnce(bigEndian: Bool) throws {
        let attributes = (1...200_000).map { " Ģ\($0)=\"Ģ\"" }.joined()
        let xml = rss("<item><title>x</title>\n<enclosure url=\"https://x/a.mp3\"\(attributes)/></item>")
            .replacingOccurrences(of: "UTF-8", with: "UTF-16")
        let bytes = bigEndian ? [0xFE, 0xFF] + Self.utf16(xml, bigEndian: true) : Self.utf16(xml, bigEndian: false)
        let start = ContinuousClock.now
        #expect(throws: FeedError.tooManyAttributes(line: 5, limit: 1_000)) { try parser.parse(bytes) }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// In Shift_JIS the second byte of a character may be `]` (ゾ is 83 5D): it does not end a
    /// CDATA section early, and what follows in the section does not hide the tag after it.
    @Test func aShiftJISCharacterDoesNotEndACDATASection() throws {
        let attributes = (1...1_001).map { " a\($0)=\"1\"" }.joined()
        var bytes = Array(#"<?xml version="1.0" encoding="Shift_JIS"?><rss><channel><title>S</title>"#.utf8)
        bytes += Array("\n<item><description><![CDATA[".utf8) + [0x83, 0x5D] + Array("]> <x ']]></description>".utf8)
        bytes += Array("\n<enclosure url=\"https://x/a.mp3\"\(attributes)/></item></channel></rss>".utf8)
        #expect(throws: FeedError.tooManyAttributes(line: 3, limit: 1_000)) { try parser.parse(bytes) }
    }

    /// A `>` or a quote in a quoted value of the document type's internal subset is not the
    /// end of a declaration: it does not hide the tag after it.
    @Test func aQuotedValueInTheDocumentTypeDoesNotHideATag() throws {
        let attributes = (1...200_000).map { " a\($0)=\"1\"" }.joined()
        let feed = rss("<item><title>x</title>\n<enclosure url=\"https://x/a.mp3\"\(attributes)/></item>")
            .replacingOccurrences(of: "?>\n", with: "?><!DOCTYPE rss [<!ENTITY e \"><x '\">]>\n")
        let start = ContinuousClock.now
        #expect(throws: FeedError.tooManyAttributes(line: 5, limit: 1_000)) { try parse(feed) }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    /// An encoding in which markup is not ASCII bytes is refused before libxml2 reads it (issue
    /// 22 review: in UTF-7 `=` is `+AD0-`, and libxml2 reads UTF-7, EBCDIC and ISO-2022 through
    /// iconv), whatever its spelling; so is a switch to UTF-16 from a document read as bytes.
    @Test(arguments: [
        "UTF-7", "utf-7", "UNICODE-1-1-UTF-7", "IBM037", "EBCDIC-US", "ISO-2022-JP", "UTF-16LE", "CP1047",
    ])
    func anEncodingWhoseMarkupIsNotASCIIIsRefused(name: String) throws {
        let attributes = (1...200_000).map { " a\($0)+AD0-+ACI-1+ACI-" }.joined()
        let xml = rss("<item><title>x</title><enclosure url=\"https://x/a.mp3\"\(attributes)/></item>")
            .replacingOccurrences(of: "UTF-8", with: name)
        let start = ContinuousClock.now
        #expect(throws: FeedError.unreadableEncoding(name)) { try parse(xml) }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(
            FeedError.unreadableEncoding("UTF-7").description
                == "not read: the feed is in UTF-7, an encoding podcli does not read (it reads UTF-8, UTF-16 and the "
                + "ASCII-based ones: ISO-8859-*, Windows-125x, Shift_JIS, ...)")
    }

    /// EBCDIC told by its first bytes (`<?xm` is 4C 6F A7 94) is refused as well.
    @Test func anEBCDICDocumentIsRefused() throws {
        let bytes: [UInt8] = [0x4C, 0x6F, 0xA7, 0x94, 0x93, 0x40, 0xA5, 0x85, 0x99, 0xA2, 0x89, 0x96, 0x95]
        #expect(throws: FeedError.unreadableEncoding("EBCDIC")) { try parser.parse(bytes) }
    }

    /// What is not a start tag is not counted: `=` in quoted values, comments, CDATA sections
    /// (whose HTML has `<` of its own), processing instructions and declarations; and a tag of
    /// 1,000 attributes is read.
    @Test func attributesAreCountedOnlyInStartTags() throws {
        let equals = String(repeating: "x=1 ", count: 2_000)
        let others = (1...997).map { " a\($0)=\"1\"" }.joined()
        let feed = try parse(
            rss(
                """
                <!-- <a \(equals) -> -->
                <?pi \(equals) ?>
                <item><title>One</title><description><![CDATA[<p \(equals) ]]]></description>
                <enclosure url="https://x/a.mp3" type="audio/mpeg" title="\(equals) > b"\(others)/></item>
                """))
        #expect(feed.items.map(\.title) == ["One"])
    }

    /// A parse that takes libxml2 longer than its budget is refused, however its bytes arrive.
    @Test func aParseOverItsBudgetIsRefused() throws {
        let items = (1...2_000).map {
            "<item><title>Episode \($0)</title><enclosure url=\"https://x/\($0).mp3\"/></item>"
        }
        let feed = Array(rss(items.joined(separator: "\n")).utf8)
        #expect(try parser.parse(feed).items.count == 2_000)
        let hurried = FeedParser(baseURL: parser.baseURL, budget: .nanoseconds(1))
        #expect(throws: FeedError.tooSlow(seconds: 0)) { try hurried.parse(feed) }
        #expect(
            FeedError.tooSlow(seconds: 20).description
                == "not read: the feed took more than 20 s to read (built to be slow, or far too large)")
    }

    // MARK: Not a feed

    @Test func anEmptyBodyIsNotAFeed() {
        #expect(throws: FeedError.empty) { try parse("") }
        #expect(throws: FeedError.empty) { try parse("   \n  ") }
    }

    @Test func anHTMLPageIsNotAFeed() {
        #expect(throws: FeedError.notAFeed(root: "html")) {
            try parse("<!DOCTYPE html><html><head><title>Login</title></head><body>Sign in</body></html>")
        }
        #expect(FeedError.notAFeed(root: "html").description == "not a feed: an HTML page")
    }

    @Test func otherXMLIsNotAFeed() {
        #expect(throws: FeedError.notAFeed(root: "opml")) { try parse("<opml version=\"2.0\"><body/></opml>") }
    }

    @Test func textIsNotXML() {
        let error = #expect(throws: FeedError.self) { try parse("i am not xml") }
        guard case .notXML = error else {
            Issue.record("expected notXML, got \(String(describing: error))")
            return
        }
    }

    @Test func aTextLongerThanLibxml2ReadsInOnePieceIsSaidSoNotCalledCutOff() {
        let huge = String(repeating: "b", count: 11_000_000)
        let feed = rss("<item><title>x</title><description><![CDATA[\(huge)]]></description></item>")
        #expect(throws: FeedError.textTooLong(line: 4)) { try parse(feed) }
        #expect(
            FeedError.textTooLong(line: 3).description
                == "not read: a text in the feed (at line 3) is longer than the 10 MB podcli reads in one piece")
    }

    @Test func bytesThatDoNotDecodeInTheDeclaredEncodingAreNotAFeed() {
        var bytes = Array(#"<?xml version="1.0" encoding="EUC-JP"?><rss><channel><title>"#.utf8)
        bytes += [0xFF, 0xFF, 0xA1]
        bytes += Array("</title></channel></rss>".utf8)
        #expect(throws: FeedError.badEncoding) { try parser.parse(bytes) }
    }

    /// A control character where libxml2 cannot recover from it (an attribute, a CDATA section)
    /// stops the document there: said as such, with its line, not as a feed that ends early.
    @Test(arguments: [
        rssWithIllegalCharacter(#"<enclosure url="https://x/a\#u{1}b.mp3"/>"#),
        rssWithIllegalCharacter("<description><![CDATA[a\u{1}b]]></description>"),
    ])
    func anIllegalCharacterIsSaidWithItsLine(feed: String) {
        #expect(throws: FeedError.illegalCharacter(line: 3)) { try parse(feed) }
    }

    static func rssWithIllegalCharacter(_ inside: String) -> String {
        "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>Show</title>\n<item>\(inside)</item>\n</channel></rss>\n"
    }

    @Test func theWordsForAnIllegalCharacterNameTheDocument() {
        #expect(
            FeedError.illegalCharacter(line: 3).description
                == "not read: the feed has an illegal character at line 3 (XML allows no control characters but tab, "
                + "newline and carriage return)")
    }

    @Test func aFeedCutOffAfterAnIllegalCharacterLibxml2ReadPastEndsEarly() throws {
        let full = rss(
            "<item><title>a\u{1}b</title></item>\n"
                + (1...20).map { "<item><title>E\($0)</title><enclosure url=\"https://x/\($0).mp3\"/></item>" }
                .joined(separator: "\n"))
        let cut = String(full.prefix(full.count * 3 / 4))
        let error = #expect(throws: FeedError.self) { try parse(cut) }
        guard case .truncated = error else {
            Issue.record("expected truncated, got \(String(describing: error))")
            return
        }
    }

    @Test func bytesThatAreNotUTF8InACDATASectionAreNotAnIllegalCharacter() {
        let parts = Self.rssWithIllegalCharacter("<description><![CDATA[a\u{1}b]]></description>")
            .split(separator: "\u{1}")
        let bytes = Array(parts[0].utf8) + [0xFF] + Array(parts[1].utf8)
        let error = #expect(throws: FeedError.self) { try parser.parse(bytes) }
        if case .illegalCharacter = error { Issue.record("a byte that does not decode taken for an illegal character") }
    }

    @Test func aTruncatedFeedIsAnErrorNotAShorterFeed() throws {
        let full = rss(
            (1...20).map { "<item><title>E\($0)</title><enclosure url=\"https://x/\($0).mp3\"/></item>" }.joined())
        let cut = String(full.prefix(full.count / 2))
        let error = #expect(throws: FeedError.self) { try parse(cut) }
        guard case .truncated = error else {
            Issue.record("expected truncated, got \(String(describing: error))")
            return
        }
    }

    @Test func parsesAFileLargerThanLibxml2sSingleInputLimit() throws {
        // libxml2 refuses one input over 10 MB without XML_PARSE_HUGE; chunked feeding must not.
        let description = String(repeating: "word &amp; more ", count: 40)
        let item =
            "<item><title>T</title><description>\(description)</description><enclosure url=\"https://x/a.mp3\"/></item>"
        let xml = rss(String(repeating: item, count: 17_000))
        #expect(xml.utf8.count > 10_000_000)
        let file = try TemporaryFile(contents: xml)
        let feed = try parser.parse(contentsOf: file.path)
        #expect(feed.items.count == 17_000)
    }

    @Test func recoveredMistakesAreKeptBoundedNotOneEach() throws {
        let noise = String(repeating: #"<x a="1" a="2"/>"#, count: 5_000)
        let feed = try parse(rss("<item><enclosure url=\"https://x/a.mp3\"/>\(noise)</item>"))
        #expect(feed.items.count == 1)
        #expect(feed.warnings.count == 100)
    }

    @Test func aMissingFileIsUnreadable() {
        #expect(throws: FeedError.unreadable(path: "/nonexistent/feed.xml", errno: ENOENT)) {
            try parser.parse(contentsOf: "/nonexistent/feed.xml")
        }
    }
}

/// A file in the temporary directory, removed when the value goes away.
final class TemporaryFile {
    let path: String

    init(contents: String) throws {
        path = NSTemporaryDirectory() + "/podcli-feeds-\(UUID().uuidString)"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit { unlink(path) }
}
