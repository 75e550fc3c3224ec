import Foundation
import TestSupport
import Testing

@testable import Downloads

/// Real libcurl against the loopback fault server: what a feed fetch sends, what it hands its
/// sink, and how it ends.
@Suite struct FeedFetcherTests {
    let server: FaultServer

    init() throws { server = try FaultServer.shared() }

    private var fetcher: FeedFetcher {
        var policy = DownloadPolicy(userAgent: "podcli/test")
        policy.baseDelay = 0.01
        policy.maxAttempts = 3
        return FeedFetcher(policy: policy)
    }

    /// Serves `text` as `name` in a folder of this test's own; returns its server path.
    private func serve(_ name: String, _ text: String) throws -> String {
        let folder = "feedfetch-\(UUID().uuidString)"
        try Data(text.utf8).write(to: try server.makeDirectory(folder).appendingPathComponent(name))
        return "/files/\(folder)/\(name)"
    }

    private static let feed = """
        <?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
        <item><title>One</title><enclosure url="https://x/1.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """

    /// Collects what the fetcher streams, body by body.
    final class Collector: FeedBodySink {
        var bodies: [(url: String, bytes: Data)] = []

        func begin(url: String) { bodies.append((url, Data())) }
        func receive(_ bytes: UnsafeRawBufferPointer) { bodies[bodies.count - 1].bytes.append(contentsOf: bytes) }
    }

    @Test func aFeedIsStreamedToTheSinkWithItsValidators() throws {
        let path = try serve("feed.xml", Self.feed)
        let sink = Collector()
        let response = try fetcher.fetch(FeedRequest(url: server.url(path), maxBytes: 1 << 20), into: sink)
        guard case .document(let info) = response else {
            Issue.record("expected a document, got \(response)")
            return
        }
        #expect(sink.bodies.map(\.url) == [server.url(path)])
        #expect(String(decoding: sink.bodies[0].bytes, as: UTF8.self) == Self.feed)
        #expect(info.etag != nil && info.lastModified != nil)
        #expect(info.movedPermanentlyTo == nil)
        #expect(info.mediaType == "application/rss+xml")
    }

    @Test func theValidatorsGetA304AndNoBody() throws {
        let path = try serve("feed.xml", Self.feed)
        let first = try fetcher.fetch(FeedRequest(url: server.url(path), maxBytes: 1 << 20), into: Collector())
        guard case .document(let info) = first else {
            Issue.record("expected a document, got \(first)")
            return
        }
        let sink = Collector()
        let second = try fetcher.fetch(
            FeedRequest(url: server.url(path), etag: info.etag, lastModified: info.lastModified, maxBytes: 1 << 20),
            into: sink)
        guard case .notModified = second else {
            Issue.record("expected 304, got \(second)")
            return
        }
        #expect(sink.bodies.isEmpty)
        let requests = try server.stats(pathPrefix: path)
        #expect(requests.last?.ifNoneMatch == info.etag)
        #expect(requests.last?.ifModifiedSince == info.lastModified)
        #expect(requests.last?.status == 304)
    }

    @Test func aGzippedBodyArrivesDecoded() throws {
        let path = try serve("feed.xml", Self.feed)
        let sink = Collector()
        _ = try fetcher.fetch(FeedRequest(url: server.url(path + "?gzip=1"), maxBytes: 1 << 20), into: sink)
        #expect(String(decoding: sink.bodies.last?.bytes ?? Data(), as: UTF8.self) == Self.feed)
        #expect(try server.stats(pathPrefix: path).last?.acceptEncoding?.contains("gzip") == true)
    }

    @Test(arguments: [("/permanent", true), ("/moved", true), ("/redirect/2", false)])
    func onlyAChainOfPermanentRedirectsIsAMove(prefix: String, permanent: Bool) throws {
        let path = try serve("feed.xml", Self.feed)
        let response = try fetcher.fetch(
            FeedRequest(url: server.url(prefix + path), maxBytes: 1 << 20), into: Collector())
        guard case .document(let info) = response else {
            Issue.record("expected a document, got \(response)")
            return
        }
        #expect(info.finalURL == server.url(path))
        #expect(info.movedPermanentlyTo == (permanent ? server.url(path) : nil))
    }

    @Test func aBodyOverTheLimitIsRefused() throws {
        let path = try serve("big.xml", Self.feed + String(repeating: "<!-- padding -->", count: 10_000))
        #expect(throws: DownloadError.feedTooLarge(url: server.url(path), limit: 64 * 1024)) {
            try fetcher.fetch(FeedRequest(url: server.url(path), maxBytes: 64 * 1024), into: Collector())
        }
        #expect(
            DownloadError.feedTooLarge(url: "u", limit: 128 << 20).description
                == "u is larger than 128 MiB, more than podcli reads as a feed")
    }

    @Test func audioIsToldApartWithoutDownloadingIt() throws {
        let folder = "feedfetch-\(UUID().uuidString)"
        var audio = Data("ID3\u{4}\0\0\0\0\0\0".utf8)
        audio.append(Data(count: 2_000_000))
        try audio.write(to: try server.makeDirectory(folder).appendingPathComponent("episode.bin"))
        // Paced at 200 KB/s, the whole file would take 10 s.
        let url = server.url("/files/\(folder)/episode.bin?slow=200000")
        let sink = Collector()
        let started = ContinuousClock.now
        let response = try fetcher.fetch(FeedRequest(url: url, maxBytes: 1 << 30), into: sink)
        #expect(response == .audio(finalURL: url))
        #expect(sink.bodies.isEmpty)
        #expect(ContinuousClock.now - started < .seconds(5), "the transfer stops at the first bytes")
    }

    @Test func serverErrorsAreRetriedAndAMissingFeedIsNot() throws {
        let path = try serve("feed.xml", Self.feed)
        let sink = Collector()
        let response = try fetcher.fetch(
            FeedRequest(url: server.url(path + "?status=503&times=2"), maxBytes: 1 << 20), into: sink)
        guard case .document = response else {
            Issue.record("expected a document after two 503s, got \(response)")
            return
        }
        #expect(try server.stats(pathPrefix: path).count == 3)
        #expect(String(decoding: sink.bodies.last?.bytes ?? Data(), as: UTF8.self) == Self.feed)

        let missing = server.url(path + "-gone")
        #expect(throws: DownloadError.http(status: 404, url: missing, attempts: 1)) {
            try fetcher.fetch(FeedRequest(url: missing, maxBytes: 1 << 20), into: Collector())
        }
    }

    @Test func a304WithoutValidatorsIsAnError() throws {
        let path = try serve("feed.xml", Self.feed)
        let url = server.url(path + "?status=304&times=9")
        #expect(throws: DownloadError.http(status: 304, url: url, attempts: 1)) {
            try fetcher.fetch(FeedRequest(url: url, maxBytes: 1 << 20), into: Collector())
        }
    }

    @Test func onlyHTTPAndHTTPSAreFetched() {
        #expect(throws: DownloadError.invalidURL("file:///etc/passwd")) {
            try fetcher.fetch(FeedRequest(url: "file:///etc/passwd", maxBytes: 1 << 20), into: Collector())
        }
    }
}
