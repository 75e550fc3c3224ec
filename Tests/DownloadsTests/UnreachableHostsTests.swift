import Foundation
import TestSupport
import Testing
import Threads

@testable import Downloads

#if canImport(Glibc)
    import Glibc
#endif

/// Real libcurl: a host that refuses the connection or whose name does not resolve fails at
/// once, without retries, and the transfers of the run that share the memory do not try it again.
@Suite struct UnreachableHostsTests {
    private static func policy(_ hosts: UnreachableHosts?) -> DownloadPolicy {
        var policy = DownloadPolicy(userAgent: "podcli/test")
        // A retry would wait at least 2.5 s (equal jitter on 5 s): far from one failed connection.
        policy.baseDelay = 5
        policy.unreachableHosts = hosts
        return policy
    }

    private static func fetch(_ url: String, policy: DownloadPolicy) -> (DownloadError?, seconds: Double) {
        let started = Date()
        do {
            _ = try FeedFetcher(policy: policy).fetch(FeedRequest(url: url, maxBytes: 1 << 20), into: Discard())
            return (nil, Date().timeIntervalSince(started))
        } catch {
            return (error, Date().timeIntervalSince(started))
        }
    }

    final class Discard: FeedBodySink {
        func begin(url: String) {}
        func receive(_ bytes: UnsafeRawBufferPointer) {}
    }

    @Test func aRefusedHostIsNotRetriedAndNotTriedAgainByTheRun() throws {
        let closed = try ClosedLoopbackPort()
        let port = closed.port
        let hosts = UnreachableHosts()
        let url = "http://127.0.0.1:\(port)/feed.xml"
        let refused = UnreachableHost(name: "127.0.0.1:\(port)", reason: .refused)

        // A second attempt would come 2.5 s or more after the first.
        let (first, seconds) = Self.fetch(url, policy: Self.policy(hosts))
        #expect(first == .unreachable(url: url, host: refused))
        #expect(seconds < 2.5, "\(seconds) s")
        #expect(first?.description == "could not download \(url): 127.0.0.1:\(port) refused the connection")

        // Something listens there now; the run does not look again (nor does a download).
        let listener = try closed.listen()
        let other = "http://127.0.0.1:\(port)/other.xml"
        #expect(Self.fetch(other, policy: Self.policy(hosts)).0 == .unreachable(url: other, host: refused))
        let directory = try TemporaryDirectory(prefix: "podcli-unreachable")
        #expect(throws: DownloadError.unreachable(url: url + ".mp3", host: refused)) {
            try Downloader(policy: Self.policy(hosts)).download(
                DownloadRequest(url: url + ".mp3", directory: directory.path, fileMode: 0o600)
            ) { _ in }
        }
        _ = fcntl(listener, F_SETFL, O_NONBLOCK)
        #expect(accept(listener, nil, nil) == -1 && errno == EAGAIN, "a transfer connected")

        // Another port of the same address is another host.
        let server = try FaultServer.shared()
        let file = "unreachable-\(UUID().uuidString)"
        try Data("<rss><channel><title>T</title></channel></rss>".utf8).write(
            to: try server.makeDirectory(file).appendingPathComponent("feed.xml"))
        #expect(Self.fetch(server.url("/files/\(file)/feed.xml"), policy: Self.policy(hosts)).0 == nil)
    }

    /// A policy with no run memory (`play`'s) retries a refused connection with its backoff: a
    /// server that comes back between two attempts is downloaded from (it failed at once).
    @Test func withoutTheRunsMemoryARefusedConnectionIsRetried() throws {
        let closed = try ClosedLoopbackPort()  // refused until it listens
        let body = Data("ID3\u{4}\0\0\0\0\0\0".utf8) + Data(repeating: 0x55, count: 20_000)
        // Answers one request on the listening socket.
        let serveOnce: @Sendable (Int32) -> Void = { listening in
            let connection = accept(listening, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.suffix(4).elementsEqual("\r\n\r\n".utf8) && request.count < 65_536 {
                let count = recv(connection, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                request += buffer[0..<count]
            }
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            let response = Data(head.utf8) + body
            _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        var server: ServiceThread?
        defer { server?.join() }
        var waits = 0
        let directory = try TemporaryDirectory(prefix: "podcli-unreachable")
        let result = try Downloader(policy: Self.policy(nil)).download(
            DownloadRequest(
                url: "http://127.0.0.1:\(closed.port)/episode.mp3", directory: directory.path, fileMode: 0o600)
        ) { event in
            guard case .waiting = event else { return }
            waits += 1
            guard waits == 1, let listening = try? closed.listen() else { return }  // back before the retry
            server = ServiceThread(name: "test.comeback") { _ in serveOnce(listening) }
        }
        #expect(waits == 1)
        #expect(try Data(contentsOf: directory.appending(result.partialName)) == body)
    }

    @Test func aNameThatDoesNotResolveIsRememberedToo() throws {
        let hosts = UnreachableHosts()
        let url = "http://nonexistent.invalid/feed.xml"
        let (error, _) = Self.fetch(url, policy: Self.policy(hosts))
        let notFound = UnreachableHost(name: "nonexistent.invalid:80", reason: .notFound)
        #expect(error == .unreachable(url: url, host: notFound))
        #expect(hosts.failure(for: "http://NONEXISTENT.invalid:80/other") == notFound)
        #expect(hosts.failure(for: "https://nonexistent.invalid/other") == nil)
    }
}
