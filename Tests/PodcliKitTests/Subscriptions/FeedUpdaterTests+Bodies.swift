import Downloads
import EpisodeStore
import Feeds
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// Bodies that are not a whole feed: nothing stored changes, and a refresh records why.
extension FeedUpdaterTests {
    /// Served as a feed, but not a complete one.
    enum BadBody: String, CaseIterable, Sendable {
        case empty, truncated, notXML, otherXML

        var text: String {
            switch self {
            case .empty: return ""
            case .truncated:
                // Everything the server has, sent complete, but the document stops inside an item.
                let whole = RSS(title: "Cut", items: RSS.unfetched(4)).text
                return String(whole[..<whole.range(of: "<item>", options: .backwards)!.upperBound]) + "\n<title>Episo"
            case .notXML: return "this is not a feed at all\n"
            case .otherXML: return #"<?xml version="1.0"?><config><key>value</key></config>"#
            }
        }

        var messagePrefix: String {
            switch self {
            case .empty: return "the feed is empty"
            case .truncated: return "the feed ends early (cut off at line "
            case .notXML: return "not a feed: not XML"
            case .otherXML: return "not a feed: the document is <config>, not RSS or Atom"
            }
        }
    }

    @Test(arguments: BadBody.allCases)
    func aBodyThatIsNotACompleteFeedSubscribesToNothing(body: BadBody) throws {
        let s = try Shelf()
        let url = try s.t.serve("feed.xml", body.text)
        #expect {
            try s.updater.subscribe(url: url)
        } throws: { error in
            guard case PodcliError.unreadableFeed(let named, _) = error else { return false }
            return named == url && "\(error)".hasPrefix("\(url): \(body.messagePrefix)")
        }
        try s.expectNothingStored()
    }

    @Test(arguments: ["/html/portal-NAME.xml", "PAGE"])
    func anHTMLPageIsRefusedAsAPortalAndNothingIsSubscribed(path: String) throws {
        let s = try Shelf()
        // The fault server's captive portal (text/html), or a page served as a feed would be.
        let url =
            path == "PAGE"
            ? try s.t.serve(
                "page.xml", "<!DOCTYPE html>\n<html><head><title>Login</title></head><body>Sign in</body></html>\n")
            : s.t.server.url(path.replacingOccurrences(of: "NAME", with: UUID().uuidString))
        #expect {
            try s.updater.subscribe(url: url)
        } throws: { error in
            guard case PodcliError.htmlPage(let named) = error else { return false }
            return named == url
                && "\(error)" == "\(url) is not a feed or audio (the server sent an HTML page, perhaps a captive "
                    + "portal or login page); nothing was kept"
        }
        try s.expectNothingStored()
    }

    @Test func audioInsteadOfAFeedSubscribesToNothingAndIsAFailureOfASubscribedFeed() throws {
        let s = try Shelf()
        // Larger than loopback's socket buffers (a few MB), so a server cannot have sent it all.
        let audio = AudioBytes.make(16_000_000)
        let url = try s.t.serve("episode.mp3", audio)
        guard case .audio = try s.updater.subscribe(url: url) else { throw TestSupportError("taken for a feed") }
        try s.expectNothingStored()
        // The transfer stopped at once: the audio was not downloaded as a feed.
        #expect(try #require(try s.t.gets("episode.mp3").first).bodyBytesSent < audio.count)

        // A subscription whose address now serves an episode.
        let feedURL = try s.t.serve("feed.xml", RSS(title: "Turned", items: RSS.unfetched(1)).text)
        _ = try s.subscribe(feedURL)
        try s.t.serve("feed.xml", audio)
        #expect {
            try s.refresh()
        } throws: { error in
            guard case PodcliError.servesAudio(let named) = error else { return false }
            return named == feedURL
        }
        let feed = try #require(try s.t.library.feed(id: 1))
        #expect(feed.failures == 1 && feed.lastError == "\(PodcliError.servesAudio(url: feedURL))")
        #expect(try s.t.library.episodes().count == 1)
    }

    @Test func aRefreshThatGetsABrokenFeedKeepsEverythingAndRecordsTheError() throws {
        let s = try Shelf()
        let document = RSS(title: "Fragile", items: RSS.unfetched(3)).text
        let url = try s.t.serve("feed.xml", document)
        _ = try s.subscribe(url)
        let before = try s.t.library.episodes()

        try s.t.serve("feed.xml", String(document.prefix(document.count * 2 / 3)))
        #expect {
            try s.refresh()
        } throws: { error in
            guard case PodcliError.unreadableFeed(_, .truncated) = error else { return false }
            return "\(error)".hasPrefix("\(url): the feed ends early")
        }
        #expect(try s.t.library.episodes() == before)
        let failed = try #require(try s.t.library.feed(id: 1))
        #expect(failed.failures == 1 && failed.lastError?.contains("the feed ends early") == true, "\(failed)")
        #expect(failed.title == "Fragile" && failed.etag != nil)

        // Once the feed is whole again, the error is cleared and nothing was lost.
        try s.t.serve("feed.xml", document)
        guard case .refreshed(let healed, let summary) = try s.refresh() else {
            throw TestSupportError("not refreshed")
        }
        #expect(healed.failures == 0 && healed.lastError == nil && summary.added == 0 && summary.matched == 3)
        #expect(try s.t.library.episodes().map(\.uuid) == before.map(\.uuid))
    }

    @Test func anHTTPErrorOfARefreshIsRecordedOnTheFeedAndRethrown() throws {
        let s = try Shelf()
        let url = try s.t.serve("feed.xml", RSS(title: "Gone", items: RSS.unfetched(1)).text)
        _ = try s.subscribe(url)
        try s.t.withdraw("feed.xml")
        for failures in 1...2 {
            #expect {
                try s.refresh()
            } throws: { error in
                guard case DownloadError.http(404, let named, _) = error else { return false }
                return named == url
            }
            let feed = try #require(try s.t.library.feed(id: 1))
            #expect(feed.failures == failures && feed.lastError == "server answered 404 Not Found for \(url)")
        }
        // 404 is not retried: one request a refresh.
        #expect(try s.t.gets("feed.xml").count == 1 + 2)
    }
}
