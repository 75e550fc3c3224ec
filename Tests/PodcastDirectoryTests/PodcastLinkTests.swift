import PodcastDirectory
import Testing

/// Every podcast URL scheme and Apple Podcasts link form, read as the feed or the Apple id they
/// name; anything else is left as it was.
@Suite struct PodcastLinkTests {
    @Test(arguments: [
        ("itpc://example.com/feed.xml", "https://example.com/feed.xml"),
        ("pcast://example.com/feed.xml", "https://example.com/feed.xml"),
        ("podcast://example.com/feed.xml?a=1", "https://example.com/feed.xml?a=1"),
        ("ITPC://Example.com/Feed.xml", "https://Example.com/Feed.xml"),
        ("podcast://http://example.com/feed.xml", "http://example.com/feed.xml"),
        ("pcast://https://example.com/feed.xml", "https://example.com/feed.xml"),
        ("pcast://http//example.com/feed.xml", "http://example.com/feed.xml"),
        ("itpc://example.com:8080/rss", "https://example.com:8080/rss"),
        ("feed://example.com/feed.xml", "https://example.com/feed.xml"),
        ("feed:https://example.com/feed.xml", "https://example.com/feed.xml"),
        ("feed:http://example.com/feed.xml", "http://example.com/feed.xml"),
        ("feed://http://example.com/feed.xml", "http://example.com/feed.xml"),
        ("  itpc://example.com/feed.xml\n", "https://example.com/feed.xml"),
    ])
    func aPodcastSchemeNamesTheFeedBehindIt(link: String, feed: String) {
        #expect(PodcastLink.resolve(link) == .feed(feed))
    }

    @Test(arguments: [
        ("https://podcasts.apple.com/us/podcast/the-daily/id1200361736", 1_200_361_736),
        ("https://podcasts.apple.com/us/podcast/id1200361736", 1_200_361_736),
        ("https://podcasts.apple.com/podcast/id1200361736", 1_200_361_736),
        ("https://podcasts.apple.com/gb/podcast/some-show/id42?i=1000650000000", 42),
        ("https://podcasts.apple.com/de/podcast/caf%C3%A9/id42?uo=4#top", 42),
        ("http://podcasts.apple.com/us/podcast/x/id42", 42),
        ("https://PODCASTS.APPLE.COM/us/podcast/x/id42", 42),
        ("https://itunes.apple.com/us/podcast/x/id42?mt=2", 42),
        ("https://itunes.apple.com/WebObjects/MZStore.woa/wa/viewPodcast?id=42", 42),
    ])
    func anApplePodcastsLinkNamesItsID(link: String, id: Int) {
        #expect(PodcastLink.resolve(link) == .apple(id: id))
    }

    @Test(arguments: [
        "https://example.com/feed.xml",  // a feed URL: fetched as before
        "https://example.com/podcast/id42",  // not Apple's
        "https://podcasts.apple.com/us/browse",  // Apple, but no podcast
        "https://podcasts.apple.com/us/podcast/idea",  // "id" but no number
        "https://podcasts.apple.com.evil.example/us/podcast/id42",
        "itpc:example.com/feed.xml",  // no "//"
        "itpc://",
        "feed:",
        "feed:ftp://example.com/x",
        "podcast://exa mple.com/feed",
        "The Daily",
        "12",
        "file:///etc/passwd",
    ])
    func anythingElseIsNoLink(text: String) {
        #expect(PodcastLink.resolve(text) == nil)
    }
}
