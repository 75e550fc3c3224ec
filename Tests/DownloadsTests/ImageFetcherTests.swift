import Foundation
import TestSupport
import Testing

@testable import Downloads

/// Real libcurl against the loopback fault server: an image comes back whole, or not at all.
@Suite struct ImageFetcherTests {
    let server: FaultServer

    init() throws { server = try FaultServer.shared() }

    private let fetcher = ImageFetcher(policy: DownloadPolicy(userAgent: "podcli/test"))

    /// Serves `data` as `name` in a folder of this test's own; returns its URL.
    private func serve(_ name: String, _ data: Data) throws -> String {
        let folder = "images-\(UUID().uuidString)"
        try data.write(to: try server.makeDirectory(folder).appendingPathComponent(name))
        return server.url("/files/\(folder)/\(name)")
    }

    /// An image arriving at 100 B/s, stopped after half a second (the player quit): the fetch
    /// ends at once with `.stopped`.
    @Test func aStopEndsAFetchAtOnce() throws {
        let url = try serve("slow.png", TestImage.centredSquare(width: 64, height: 64)) + "?slow=100"
        let (stop, signaller) = DownloaderTests.stopEvent(signalledAfter: 0.5)
        defer { signaller.join() }
        let started = Date()
        #expect(throws: DownloadError.stopped(url: url)) {
            try ImageFetcher(policy: DownloadPolicy(userAgent: "podcli/test"), stop: stop).fetch(url)
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func anImageComesBackWholeAfterARedirect() throws {
        let image = TestImage.centredSquare(width: 30, height: 20)
        let url = try serve("cover.png", image)
        #expect(try fetcher.fetch(url) == [UInt8](image))
        let redirected = url.replacingOccurrences(of: "/files/", with: "/redirect/2/files/")
        #expect(try fetcher.fetch(redirected) == [UInt8](image))
    }

    /// Past the limit, whether the server says so up front (Content-Length) or not (a body that
    /// keeps coming: `cl_extra` makes the length a lie).
    @Test func anImageLargerThanTheLimitIsRefused() throws {
        let url = try serve("huge.png", Data(repeating: 7, count: 5000))
        #expect(throws: DownloadError.imageTooLarge(url: url, limit: 4096)) {
            try fetcher.fetch(url, maximumBytes: 4096)
        }
        #expect(try fetcher.fetch(url, maximumBytes: 5000).count == 5000)
    }

    @Test func errorsAreTheDownloadErrorsOfDownloads() throws {
        let missing = server.url("/files/no-such-image.png")
        #expect(throws: DownloadError.http(status: 404, url: missing, attempts: 1)) { try fetcher.fetch(missing) }
        let failing = try serve("cover.png", Data([1, 2, 3])) + "?status=503"
        #expect(throws: DownloadError.http(status: 503, url: failing, attempts: 1)) { try fetcher.fetch(failing) }
        #expect(throws: DownloadError.invalidURL("file:///etc/passwd")) { try fetcher.fetch("file:///etc/passwd") }
        let toFile = server.url("/to-file/cover.png")
        #expect(throws: DownloadError.redirectRefused(from: toFile, to: "file:///etc/passwd")) {
            try fetcher.fetch(toFile)
        }
    }
}
