import Testing

@testable import Feeds

@Suite struct TrackingPrefixTests {
    static let target = "traffic.example.com/shows/ep1.mp3?x=1"

    @Test(arguments: [
        "https://dts.podtrac.com/redirect.mp3/\(target)",
        "https://dts.podtrac.com/redirect.m4a/\(target)",
        "https://dts.podtrac.com/pts/redirect.mp3/\(target)",
        "https://www.podtrac.com/pts/redirect.mp3/\(target)",
        "https://podtrac.com/pts/redirect.aac/\(target)",
        "https://play.podtrac.com/ABC-Show/\(target)",
        "https://chtbl.com/track/12345/\(target)",
        "https://chrt.fm/track/CHRT123/\(target)",
        "https://pdst.fm/e/\(target)",
        "https://pscrb.fm/rss/p/\(target)",
        "https://verifi.podscribe.com/rss/p/\(target)",
        "https://prfx.byspotify.com/e/\(target)",
        "https://op3.dev/e/\(target)",
        "https://op3.dev/e,pg=9b024349-ccf0-5f69-a609-6b82873eab3c/\(target)",
        "https://op3.dev/e/https://\(target)",
        "https://op3.dev/e//\(target)",
        "https://mgln.ai/e/35/\(target)",
        "https://mgln.ai/track/\(target)",
        "https://arttrk.com/p/ABCDE/\(target)",
        "https://clrtpod.com/m/\(target)",
        "https://clrtpod.com/m/ABC123/\(target)",
        "https://claritaspod.com/measure/\(target)",
        "https://pfx.vpixl.com/2jSe3/\(target)",
        "https://media.blubrry.com/someshow/\(target)",
        "https://media.blubrry.com/someshow/p/\(target)",
        "https://letscast.fm/track/https://\(target)",
        "https://pdrl.fm/r/86c73b/6f0827/\(target)",
        "https://a.pdcst.to/abcdWXYZ01234567/https/\(target)",
        "https://tracking.swap.fm/track/xyz/\(target)",
        "https://2.gum.fm/\(target)",
        "https://s.gum.fm/s-631f86ba3727560f9608b68b/\(target)",
    ])
    func removesEachKnownPrefix(url: String) {
        #expect(TrackingPrefix.strip(url) == Self.target)
    }

    @Test(arguments: [
        (
            "https://dts.podtrac.com/redirect.mp3/chtbl.com/track/123/pdst.fm/e/traffic.example.com/ep1.mp3?x=1",
            "traffic.example.com/ep1.mp3?x=1"
        ),
        // Chains as real feeds carry them.
        (
            "https://www.podtrac.com/pts/redirect.mp3/pdst.fm/e/chrt.fm/track/7GB118/pscrb.fm/rss/p/mgln.ai/e/35/"
                + "arttrk.com/p/ADCT2/clrtpod.com/m/traffic.megaphone.fm/ADV8126990425.mp3?updated=1726194017",
            "traffic.megaphone.fm/ADV8126990425.mp3?updated=1726194017"
        ),
        (
            "https://claritaspod.com/measure/arttrk.com/p/24FDE/verifi.podscribe.com/rss/p/pfx.vpixl.com/2jSe3/"
                + "prfx.byspotify.com/e/dts.podtrac.com/redirect.mp3/mgln.ai/e/121/injector.simplecastaudio.com/"
                + "d1078767/episodes/916e7d4a/audio/128/default.mp3?aid=rss_feed&feed=pp_b9xO6",
            "injector.simplecastaudio.com/d1078767/episodes/916e7d4a/audio/128/default.mp3?aid=rss_feed&feed=pp_b9xO6"
        ),
        (
            "https://op3.dev/e,pg=abc/dts.podtrac.com/redirect.mp3/media.example.org/audio/episode-001.mp3",
            "media.example.org/audio/episode-001.mp3"
        ),
        // Embedded schemes in their odd spellings.
        ("https://chtbl.com/track/1/https%3A//example.com/a.mp3", "example.com/a.mp3"),
        ("https://dts.podtrac.com/redirect.mp3/http://example.com/a.mp3", "example.com/a.mp3"),
        ("https://prfx.byspotify.com/e/http:/example.com/a.mp3", "example.com/a.mp3"),
        // pdst.fm's escaped slashes, but not in the query.
        ("https://pdst.fm/e/example.com%2Fshow%2Fa.mp3?u=a%2Fb", "example.com/show/a.mp3?u=a%2Fb"),
        // Prefix hosts in any case, with default ports.
        ("HTTPS://DTS.Podtrac.COM:443/Redirect.MP3/Example.COM/Path/A.mp3", "example.com/Path/A.mp3"),
    ])
    func unwrapsStackedPrefixes(url: String, expected: String) {
        #expect(TrackingPrefix.strip(url) == expected)
    }

    @Test func httpAndHttpsOfTheSameMediaCompareEqual() {
        let a = TrackingPrefix.strip("http://dts.podtrac.com/redirect.mp3/example.com/ep1.mp3")
        let b = TrackingPrefix.strip("https://example.com/ep1.mp3")
        let c = TrackingPrefix.strip("https://op3.dev/e/http://example.com/ep1.mp3")
        #expect(a == "example.com/ep1.mp3")
        #expect(a == b)
        #expect(b == c)
    }

    @Test(arguments: [
        // Plain media URLs are only normalised.
        ("https://traffic.megaphone.fm/ABC123.mp3?updated=1", "traffic.megaphone.fm/ABC123.mp3?updated=1"),
        ("http://Example.com:80/a.mp3", "example.com/a.mp3"),
        ("https://example.com:8443/a.mp3", "example.com:8443/a.mp3"),
        ("https://example.com/a.mp3#t=30", "example.com/a.mp3"),
        ("  https://example.com/a.mp3\n", "example.com/a.mp3"),
        ("example.com/a.mp3", "example.com/a.mp3"),
        ("https://example.com/Path/With/Case.MP3", "example.com/Path/With/Case.MP3"),
        // Redirectors that don't carry the target can't be seen through.
        (
            "https://tracking.feedpress.it/link/12345/67890/episode.mp3",
            "tracking.feedpress.it/link/12345/67890/episode.mp3"
        ),
        // A prefix host not followed by a host name is a real file there.
        ("https://media.blubrry.com/show/episode.mp3", "media.blubrry.com/show/episode.mp3"),
        ("https://op3.dev/e/", "op3.dev/e/"),
        ("https://op3.dev/e/not-a-host/a.mp3", "op3.dev/e/not-a-host/a.mp3"),
        ("https://chtbl.com/track/", "chtbl.com/track/"),
        ("https://dts.podtrac.com/other/example.com/a.mp3", "dts.podtrac.com/other/example.com/a.mp3"),
        // A look-alike host is not the service.
        (
            "https://notpodtrac.com/pts/redirect.mp3/example.com/a.mp3",
            "notpodtrac.com/pts/redirect.mp3/example.com/a.mp3"
        ),
        // A URL in the query is not a prefix.
        (
            "https://example.com/a.mp3?next=https://pdst.fm/e/x.com/b",
            "example.com/a.mp3?next=https://pdst.fm/e/x.com/b"
        ),
        // Not http(s): left alone.
        ("ftp://example.com/a.mp3", "ftp://example.com/a.mp3"),
        ("", ""),
    ])
    func leavesWhatIsNotAPrefix(url: String, expected: String) {
        #expect(TrackingPrefix.strip(url) == expected)
    }

    @Test func stripIsIdempotent() {
        let once = TrackingPrefix.strip("https://pdst.fm/e/chrt.fm/track/X/example.com/a.mp3")
        #expect(TrackingPrefix.strip(once) == once)
    }

    @Test func aDeepStackEnds() {
        let url = "https://" + String(repeating: "pdst.fm/e/", count: 500) + "example.com/a.mp3"
        // The bound stops the unwrapping long before; it must only end, and end with no crash.
        #expect(TrackingPrefix.strip(url).hasSuffix("example.com/a.mp3"))
    }
}
