import Foundation
import TestSupport
import Testing
import Threads

@testable import Downloads

/// Real libcurl against the loopback fault server: for each fault, the download either ends
/// byte-identical to the source or fails with the right error, never a wrong "complete" file.
@Suite struct DownloaderTests {
    let server: FaultServer
    let work: TemporaryDirectory

    init() throws {
        server = try FaultServer.shared()
        work = try TemporaryDirectory(prefix: "podcli-downloader")
    }

    /// A fast policy, so retry tests take milliseconds.
    private var policy: DownloadPolicy {
        var policy = DownloadPolicy(userAgent: "podcli/test")
        policy.baseDelay = 0.01
        policy.maxAttempts = 4
        return policy
    }

    /// Serves `size` bytes of audio-looking content at a URL of this test's own.
    private func source(_ name: String, size: Int = 300_000) throws -> (path: String, data: Data) {
        let folder = "dl-\(UUID().uuidString)"
        var data = Data("ID3\u{4}\0\0\0\0\0\0".utf8)
        var generator = SystemRandomNumberGenerator()
        data.append(contentsOf: (0..<(size - 10)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try data.write(to: try server.makeDirectory(folder).appendingPathComponent(name))
        return ("/files/\(folder)/\(name)", data)
    }

    private func download(
        _ path: String, partial: String? = nil, validator: String? = nil, policy: DownloadPolicy? = nil
    ) throws(DownloadError) -> DownloadResult {
        try Downloader(policy: policy ?? self.policy).download(
            DownloadRequest(
                url: server.url(path), directory: work.path, partialName: partial, validator: validator, fileMode: 0o600
            )
        ) { _ in }
    }

    private func content(_ result: DownloadResult) throws -> Data {
        try Data(contentsOf: work.appending(result.partialName))
    }

    /// A stop event another thread signals after `seconds`, as a player quitting would (join
    /// the thread at the end).
    static func stopEvent(signalledAfter seconds: Double) -> (StopEvent, ServiceThread) {
        let stop = StopEvent()
        let signaller = ServiceThread(name: "test.stopper") { _ in
            Thread.sleep(forTimeInterval: seconds)
            stop.signal()
        }
        return (stop, signaller)
    }

    /// A download under way when its stop event is signalled (a player quitting) ends at once
    /// with `.stopped`, not when the body would end (15 s at 20 kB/s); its partial file stays,
    /// and the next download resumes it byte-identical.
    @Test func aStopEndsADownloadAtOnceAndKeepsItsPartialFile() throws {
        let (path, data) = try source("stopped.mp3")
        let (stop, signaller) = Self.stopEvent(signalledAfter: 0.5)
        defer { signaller.join() }
        var partial: String?
        let started = Date()
        #expect(throws: DownloadError.stopped(url: server.url(path + "?slow=20000"))) {
            try Downloader(policy: policy, stop: stop).download(
                DownloadRequest(url: server.url(path + "?slow=20000"), directory: work.path, fileMode: 0o600)
            ) { event in
                if case .responseStarted(let name, _) = event { partial = name }
            }
        }
        #expect(Date().timeIntervalSince(started) < 5)
        let name = try #require(partial)
        let kept = try Data(contentsOf: work.appending(name))
        #expect(kept.count > 0 && kept.count < data.count && kept == data.prefix(kept.count))
        let resumed = try download(path, partial: name)
        #expect(try content(resumed) == data)
    }

    /// A stop during the wait before a retry ends that wait at once.
    @Test func aStopEndsTheWaitBeforeARetry() throws {
        let (path, _) = try source("retried.mp3")
        var slow = policy
        slow.baseDelay = 30
        slow.maxDelay = 30
        let (stop, signaller) = Self.stopEvent(signalledAfter: 0.5)
        defer { signaller.join() }
        let started = Date()
        let url = server.url(path + "?status=503&times=10")
        #expect(throws: DownloadError.stopped(url: url)) {
            try Downloader(policy: slow, stop: stop).download(
                DownloadRequest(url: url, directory: work.path, fileMode: 0o600)
            ) { _ in }
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aPlainDownloadIsByteIdenticalWithItsChecksum() throws {
        let (path, data) = try source("plain.mp3")
        let result = try download(path)
        #expect(try content(result) == data)
        #expect(result.size == data.count)
        #expect(result.sha256 == (try sha256(of: data)))
        #expect(result.fileName == "plain.mp3")
        #expect(result.contentType == "audio/mpeg")
        let requests = try server.stats(pathPrefix: path)
        #expect(requests.count == 1)
        #expect(requests.first?.userAgent == "podcli/test")
    }

    @Test func aDroppedConnectionIsResumedWithARangeRequest() throws {
        let (path, data) = try source("drop.mp3")
        let result = try download(path + "?drop=100000")
        #expect(try content(result) == data)
        let requests = try server.stats(pathPrefix: path)
        #expect(requests.count == 2)
        #expect(requests.last?.range == "bytes=100000-")
        #expect(requests.last?.ifRange != nil)
        #expect(requests.last?.status == 206)
    }

    @Test func serverErrorsAreRetriedAndRetryAfterIsHonoured() throws {
        let (path, data) = try source("busy.mp3")
        let started = Date()
        let result = try download(path + "?status=503&times=2&retry_after=1")
        #expect(try content(result) == data)
        #expect(Date().timeIntervalSince(started) >= 2)
        #expect(try server.stats(pathPrefix: path).map(\.status) == [503, 503, 200])
    }

    @Test func tooManyRequestsIsRetriedToo() throws {
        let (path, data) = try source("429.mp3")
        #expect(try content(download(path + "?status=429&times=1")) == data)
    }

    @Test func persistentServerErrorsFailAfterTheLastAttempt() throws {
        let (path, _) = try source("down.mp3")
        #expect(throws: DownloadError.http(status: 503, url: server.url(path + "?status=503&times=99"), attempts: 4)) {
            try download(path + "?status=503&times=99")
        }
        #expect(try server.stats(pathPrefix: path).count == 4)
    }

    @Test func aClientErrorIsNotRetried() throws {
        let (path, _) = try source("gone.mp3")
        #expect(throws: DownloadError.http(status: 404, url: server.url(path + "?status=404"), attempts: 1)) {
            try download(path + "?status=404")
        }
        #expect(try server.stats(pathPrefix: path).count == 1)
    }

    @Test func aServerIgnoringRangeMakesTheDownloadStartOverCleanly() throws {
        let (path, data) = try source("norange.mp3")
        try data.prefix(50_000).write(to: work.appending("norange.mp3.part"))
        let result = try download(path + "?norange=1", partial: "norange.mp3.part")
        #expect(try content(result) == data)
    }

    @Test func aChangedFileMakesTheResumeStartOver() throws {
        let (path, data) = try source("changed.mp3")
        // A partial file of other content, with a validator the server no longer has.
        try Data(repeating: 7, count: 40_000).write(to: work.appending("changed.mp3.part"))
        let result = try download(path, partial: "changed.mp3.part", validator: "\"stale\"")
        #expect(try content(result) == data)
        #expect(try server.stats(pathPrefix: path).first?.status == 200)
    }

    @Test func aPartialFileThatIsAlreadyCompleteNeedsNoBody() throws {
        let (path, data) = try source("complete.mp3")
        try data.write(to: work.appending("complete.mp3.part"))
        let result = try download(path, partial: "complete.mp3.part")
        #expect(try content(result) == data)
        #expect(result.sha256 == (try sha256(of: data)))
        #expect(try server.stats(pathPrefix: path).first?.status == 416)
    }

    @Test func aSlowBodyStillArrivesWhole() throws {
        let (path, data) = try source("slow.mp3", size: 60_000)
        #expect(try content(download(path + "?slow=200000")) == data)
    }

    @Test func aContentLengthLongerThanTheBodyIsRetriedAndNeverTakenAsIs() throws {
        let (path, data) = try source("short.mp3")
        // The server promises 1000 bytes more than it sends, every time. The resume then asks for
        // what lies past the true end, and the server's 416 says the file was complete after all.
        let result = try download(path + "?cl_extra=1000&times=99")
        #expect(try content(result) == data)
        let requests = try server.stats(pathPrefix: path)
        #expect(requests.map(\.status) == [200, 416])
        #expect(requests.last?.range == "bytes=\(data.count)-")
    }

    @Test func redirectsAreFollowedUpToTheLimit() throws {
        let (path, data) = try source("moved.mp3")
        #expect(try content(download("/redirect/3" + path)) == data)
        #expect(throws: DownloadError.tooManyRedirects(url: server.url("/loop/x.mp3"), limit: 10)) {
            try download("/loop/x.mp3")
        }
    }

    @Test func aRedirectToAFileURLIsRefused() throws {
        #expect(throws: DownloadError.redirectRefused(from: server.url("/to-file/x.mp3"), to: "file:///etc/passwd")) {
            try download("/to-file/x.mp3")
        }
    }

    @Test func onlyHTTPAndHTTPSAreFetched() throws {
        for url in ["file:///etc/passwd", "ftp://127.0.0.1/x.mp3", "not a url", "http://"] {
            #expect(throws: DownloadError.invalidURL(url)) {
                try Downloader(policy: policy).download(
                    DownloadRequest(url: url, directory: work.path, fileMode: 0o600)
                ) { _ in }
            }
        }
    }

    @Test func anHTMLPageIsRefusedAndNothingIsKept() throws {
        #expect {
            try download("/html/portal.mp3")
        } throws: { error in
            guard case DownloadError.notAudio(_, let reason) = error else { return false }
            return reason.contains("text/html")
        }
        let (path, _) = try source("disguised.mp3")
        try Data("<!DOCTYPE html><html><body>Log in to the Wi-Fi</body></html>".utf8)
            .write(to: server.root.appendingPathComponent(String(path.dropFirst("/files/".count))))
        #expect(throws: DownloadError.notAudio(url: server.url(path), reason: "an HTML page")) {
            try download(path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
    }

    @Test func aDispositionNameCannotEscapeTheDirectory() throws {
        let (path, data) = try source("named.mp3")
        let result = try download(path + "?disposition=../../escape.mp3")
        #expect(result.partialName == "escape.mp3.part")
        #expect(try content(result) == data)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["escape.mp3.part"])
    }

    @Test func aNameThatCannotBeCreatedIsAStorageError() throws {
        let (path, _) = try source("nowhere.mp3")
        #expect {
            try Downloader(policy: policy).download(
                DownloadRequest(url: server.url(path), directory: work.path + "/missing", fileMode: 0o600)
            ) { _ in }
        } throws: { error in
            guard case DownloadError.storage(_, let code) = error else { return false }
            return code == ENOENT
        }
    }

    @Test func eventsTellAttemptsProgressAndTheValidator() throws {
        let (path, data) = try source("events.mp3")
        var events: [String] = []
        var lastProgress = 0
        _ = try Downloader(policy: policy).download(
            DownloadRequest(url: server.url(path + "?drop=1000"), directory: work.path, fileMode: 0o600)
        ) { event in
            switch event {
            case .attemptStarted(_, let offset): events.append("start \(offset)")
            case .responseStarted(let name, let validator): events.append("response \(name) \(validator != nil)")
            case .attemptFinished(let status, _, let error): events.append("finish \(status ?? 0) \(error == nil)")
            case .progress(let received, _): lastProgress = received
            case .waiting: events.append("wait")
            }
        }
        #expect(
            events == [
                "start 0", "response events.mp3.part true", "finish 200 false", "wait",
                "start 1000", "response events.mp3.part true", "finish 206 true",
            ])
        #expect(lastProgress == data.count)
    }
}
