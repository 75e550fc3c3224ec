import Foundation
import TestSupport
import Testing

@testable import Downloads

/// Real libcurl against the loopback fault server's echo: what an API request sends arrives as
/// sent, and every way it can fail is an `APIError` a user can act on, none showing the password.
@Suite struct APIClientTests {
    let server: FaultServer
    let client = APIClient(policy: DownloadPolicy(userAgent: "podcli/test"))

    init() throws { server = try FaultServer.shared() }

    /// What the echo endpoint saw of a request.
    struct Echo: Decodable {
        let method: String
        let path: String
        let headers: [String: String]
        let body: String
    }

    private func echo(_ reply: APIReply) throws -> Echo { try JSONDecoder().decode(Echo.self, from: Data(reply.body)) }

    private static func basic(_ user: String, _ password: String) -> String {
        Data("\(user):\(password)".utf8).base64EncodedString()
    }

    @Test func aJSONBodyArrivesIntactByPostAndPutAndAGetAfterThemSendsNone() throws {
        // Over 1 MiB, the size past which libcurl 7.88 would wait for "100 Continue" before sending.
        let urls = (1...40).map { #""https://example.com/feed\#($0)?a=1&b=é""# }.joined(separator: ",")
        let padding = String(repeating: "ünïcödé ✓ ", count: 80_000)
        let document = #"{"add":[\#(urls)],"remove":[],"note":"\#(padding)"}"#
        #expect(document.utf8.count > 1024 * 1024)
        let url = server.url("/echo/api/2/subscriptions/alice/laptop.json")
        let posted = try client.perform(
            APIRequest(.post, url, headers: ["Accept: application/json"], jsonBody: Array(document.utf8)))
        #expect(posted.status == 200 && posted.isJSON && posted.url == url)
        let post = try echo(posted)
        #expect(post.method == "POST")
        #expect(post.body == document)
        #expect(post.headers["content-type"] == "application/json")
        #expect(post.headers["accept"] == "application/json")
        #expect(post.headers["user-agent"] == "podcli/test")
        #expect(post.headers["expect"] == nil)

        let put = try echo(try client.perform(APIRequest(.put, url, jsonBody: Array("[]".utf8))))
        #expect(put.method == "PUT" && put.body == "[]")

        // The same handle: a GET after a PUT neither puts nor posts, and sends no body.
        let get = try echo(try client.perform(APIRequest(.get, url + "?since=0")))
        #expect(get.method == "GET" && get.body.isEmpty && get.headers["content-length"] == nil)
        #expect(get.path.hasSuffix("laptop.json?since=0"))
    }

    /// login.json is a POST with no body: sent as an empty one, not read from stdin.
    @Test func aPostWithoutABodySendsAnEmptyOne() throws {
        let login = try echo(try client.perform(APIRequest(.post, server.url("/echo/api/2/auth/alice/login.json"))))
        #expect(login.method == "POST" && login.body.isEmpty && login.headers["content-length"] == "0")
    }

    @Test func basicAuthIsSentAndAWrongPasswordIsAnAuthErrorThatDoesNotShowIt() throws {
        let password = "correct horse:battery"
        let url = server.url("/echo/login.json?basic=\(Self.basic("alice", password))")
        let right = BasicCredentials(user: "alice", password: password)
        let reply = try client.perform(APIRequest(.post, url, credentials: right))
        #expect(try echo(reply).headers["authorization"] == "Basic \(Self.basic("alice", password))")

        let wrong = BasicCredentials(user: "alice", password: "s3cret-typo")
        let error = #expect(throws: APIError.unauthorized(status: 401, url: url, user: "alice")) {
            try client.perform(APIRequest(.post, url, credentials: wrong))
        }
        #expect(error?.description.contains("s3cret-typo") == false)
        #expect(error?.description.contains("alice") == true)
        #expect(throws: APIError.unauthorized(status: 401, url: url, user: nil)) {
            try client.perform(APIRequest(.get, url))
        }
        // The same handle, next request without credentials: none are sent.
        #expect(
            try echo(try client.perform(APIRequest(.get, server.url("/echo/open")))).headers["authorization"] == nil)
        #expect("\(wrong)" == "user 'alice', password ***" && !String(reflecting: wrong).contains("typo"))
        var dumped = ""
        dump(wrong, to: &dumped)
        #expect(!dumped.contains("typo"))
    }

    /// A redirect to another host name gets no credentials (libcurl's rule, kept by not setting
    /// CURLOPT_UNRESTRICTED_AUTH).
    @Test func credentialsDoNotFollowARedirectToAnotherHost() throws {
        let url = server.url("/to-host/localhost/echo/elsewhere")
        let reply = try client.perform(
            APIRequest(.get, url, credentials: BasicCredentials(user: "alice", password: "pw")))
        #expect(reply.url.hasPrefix("http://localhost:"))
        #expect(try echo(reply).headers["authorization"] == nil)
    }

    /// Past the cap, whether the server says so up front (Content-Length) or not (a body that ends
    /// when the connection closes).
    @Test func aReplyLargerThanTheCapIsRefused() throws {
        let announced = server.url("/gen/5000.mp3")
        #expect(throws: APIError.replyTooLarge(url: announced, limit: 4096)) {
            try client.perform(APIRequest(.get, announced, maximumReplyBytes: 4096))
        }
        let streamed = server.url("/echo/big?pad=5000&nolength=1")
        let error = #expect(throws: APIError.replyTooLarge(url: streamed, limit: 4096)) {
            try client.perform(APIRequest(.get, streamed, maximumReplyBytes: 4096))
        }
        #expect(error?.description.contains("4,096 bytes") == true || error?.description.contains("4096 bytes") == true)
        #expect(try client.perform(APIRequest(.get, announced, maximumReplyBytes: 5000)).body.count == 5000)
    }

    @Test func aRedirectToAnotherSchemeIsRefused() throws {
        let url = server.url("/to-file/api.json")
        #expect(throws: APIError.redirectRefused(from: url, to: "file:///etc/passwd")) {
            try client.perform(APIRequest(.post, url, jsonBody: Array("{}".utf8)))
        }
        #expect(throws: APIError.invalidURL("ftp://example.com/api.json")) {
            try client.perform(APIRequest(.get, "ftp://example.com/api.json"))
        }
    }

    /// A server error is its status, its reason and the first line of what the server said.
    @Test func aServerErrorSaysItsStatusAndWhatTheServerSaid() throws {
        let url = server.url("/echo/episodes.json?status=503")
        let error = #expect(throws: APIError.http(status: 503, url: url, detail: "injected status 503")) {
            try client.perform(APIRequest(.post, url, jsonBody: Array("[]".utf8)))
        }
        #expect(error?.description == "\(url) answered 503 Service Unavailable: injected status 503")
        let missing = server.url("/files/no-such-api.json")
        #expect(throws: APIError.http(status: 404, url: missing, detail: "not found")) {
            try client.perform(APIRequest(.get, missing))
        }
    }

    /// What a server says goes into the message as one printable line, short, and without the
    /// password should the server repeat it.
    @Test func whatTheServerSaidIsOneShortLineWithoutThePassword() {
        let credentials = BasicCredentials(user: "alice", password: "hunter2")
        let said = Array("no such user alice/hunter2\u{1B}[2J\nTraceback ...".utf8)
        #expect(
            APIError.refusal(status: 400, url: "http://h/x", body: said, credentials: credentials)
                == .http(status: 400, url: "http://h/x", detail: "no such user alice/*** [2J"))
        let long = APIError.refusal(
            status: 500, url: "http://h/x", body: Array(String(repeating: "x", count: 5000).utf8), credentials: nil)
        #expect(long == .http(status: 500, url: "http://h/x", detail: String(repeating: "x", count: 199) + "…"))
        #expect(
            APIError.refusal(status: 502, url: "http://h/x", body: [], credentials: nil)
                .description == "http://h/x answered 502 Bad Gateway")
    }

    @Test func aServerThatIsDownIsUnreachable() throws {
        let closed = try ClosedLoopbackPort()
        let url = "http://127.0.0.1:\(closed.port)/api/2/auth/alice/login.json"
        #expect {
            try client.perform(APIRequest(.post, url, credentials: BasicCredentials(user: "alice", password: "pw")))
        } throws: { error in
            guard case .unreachable(let failed, let reason) = error as? APIError else { return false }
            return failed == url && !reason.isEmpty && !"\(error)".contains("pw")
        }
    }

    /// A reply arriving at 100 B/s, stopped after half a second: the request ends at once.
    @Test func aStopEndsARequestAtOnce() throws {
        let url = server.url("/gen/2000.mp3?slow=100")
        let (stop, signaller) = DownloaderTests.stopEvent(signalledAfter: 0.5)
        defer { signaller.join() }
        let started = Date()
        #expect(throws: APIError.stopped(url: url)) {
            try APIClient(policy: DownloadPolicy(userAgent: "podcli/test"), stop: stop).perform(APIRequest(.get, url))
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
