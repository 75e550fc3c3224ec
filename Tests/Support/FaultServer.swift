import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One request the fault server answered, from `GET /__stats`.
public struct RequestRecord: Decodable, Sendable, Equatable {
    public let method: String
    /// The request target as sent: path and query.
    public let path: String
    /// The `Range` header, if any.
    public let range: String?
    /// The `If-Range` header, if any.
    public let ifRange: String?
    public let userAgent: String?
    /// The conditional-GET and compression headers, if any.
    public let ifNoneMatch: String?
    public let ifModifiedSince: String?
    public let acceptEncoding: String?
    /// The status answered (0 while the response has not started).
    public let status: Int
    public let bodyBytesSent: Int
    /// When the request arrived and when its response ended (nil while in flight), in seconds on
    /// the server's monotonic clock.
    public let started: Double
    public let finished: Double?

    enum CodingKeys: String, CodingKey {
        case method, path, range, status, started, finished
        case ifRange = "if_range"
        case userAgent = "user_agent"
        case ifNoneMatch = "if_none_match"
        case ifModifiedSince = "if_modified_since"
        case acceptEncoding = "accept_encoding"
        case bodyBytesSent = "body_bytes_sent"
    }
}

/// A response read by `FaultServer.get`.
public struct HTTPResponse: Sendable {
    public let status: Int
    /// Header fields in order, names as sent.
    public let headers: [(name: String, value: String)]
    public let body: Data

    /// The first header field named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// `Tests/Support/fault_server.py` running as a child process: an HTTP/1.1 server on
/// 127.0.0.1 with injectable faults (see the script's header for the endpoints and the
/// query parameters). It stops on `stop()`, on deinit, or when this process dies (it exits
/// when its stdin, a pipe held only by us, reaches end of file).
public final class FaultServer: Sendable {
    public let root: URL
    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let process: ServerProcess

    /// The script, found beside this source file.
    public static let scriptURL: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("fault_server.py")

    /// Starts a server for the files under `root`. Throws if it does not print its port
    /// within `startupTimeout` seconds. `python3` is looked up in PATH, unless
    /// `$FAULT_SERVER_PYTHON` names another interpreter.
    public init(root: URL, startupTimeout: TimeInterval = 5) throws {
        let script = Self.scriptURL
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw TestSupportError("fault server script not found at \(script.path)")
        }
        self.root = root
        let python = ProcessInfo.processInfo.environment["FAULT_SERVER_PYTHON"] ?? "python3"
        process = try ServerProcess(
            "fault server", executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [python, script.path, "--root", root.path], startupTimeout: startupTimeout)
        port = process.port
    }

    /// "http://127.0.0.1:PORT" + `path` (which starts with "/").
    public func url(_ path: String) -> String { baseURL + path }

    /// The requests answered so far, in arrival order (control requests excluded). Waits up
    /// to `wait` seconds for requests in flight to finish first, so byte counts are final.
    /// With `pathPrefix`, only requests whose path (with query) starts with it.
    public func stats(pathPrefix: String? = nil, wait: TimeInterval = 2) throws -> [RequestRecord] {
        let response = try get("/__stats?wait=\(wait)", timeout: wait + 10)
        guard response.status == 200 else {
            throw TestSupportError("GET /__stats answered \(response.status)")
        }
        struct Stats: Decodable { let requests: [RequestRecord] }
        let all = try JSONDecoder().decode(Stats.self, from: response.body).requests
        guard let pathPrefix else { return all }
        return all.filter { $0.path.hasPrefix(pathPrefix) }
    }

    /// Sets the content version of `path` (e.g. "/gen/1000000.mp3"): its bytes, ETag and
    /// Last-Modified change.
    public func setVersion(path: String, _ v: Int) throws {
        let response = try get("/__version\(path)?v=\(v)")
        guard response.status == 204 else {
            throw TestSupportError("setting the version of \(path) answered \(response.status)")
        }
    }

    /// A plain GET (no redirects followed) on a fresh connection, for tests and control
    /// requests. `headers` are added to the request.
    public func get(
        _ path: String, method: String = "GET", headers: [String: String] = [:],
        timeout: TimeInterval = 30
    ) throws -> HTTPResponse {
        try MiniHTTP.request(
            port: port, method: method, target: path, headers: headers, timeout: timeout)
    }

    public var isRunning: Bool { process.isRunning }

    /// What the server wrote to stderr so far (it is quiet unless something went wrong).
    public var serverLog: String { process.log }

    /// Stops the server (closes its stdin, then SIGTERM, then SIGKILL) and waits for it.
    public func stop() { process.stop() }

    deinit { stop() }

    // MARK: - One server for the whole test run

    private static let sharedServer: Result<FaultServer, TestSupportError> = {
        do {
            let root = try TemporaryDirectory(prefix: "podcli-fault-server")
            // The directory outlives every test; remove it when the test process exits.
            sharedRootPath.withLock { $0 = root.path }
            atexit {
                if ProcessInfo.processInfo.environment["KEEP_TEST_FILES"] == nil,
                    let path = sharedRootPath.withLock({ $0 })
                {
                    try? FileManager.default.removeItem(atPath: path)
                }
            }
            sharedRoot.withLock { $0 = root }
            try FileManager.default.createSymbolicLink(
                at: root.url.appendingPathComponent("fixtures"), withDestinationURL: fixturesURL)
            return .success(try FaultServer(root: root.url))
        } catch let error as TestSupportError {
            return .failure(error)
        } catch {
            return .failure(TestSupportError("could not start the shared fault server: \(error)"))
        }
    }()
    private static let sharedRoot = Mutex<TemporaryDirectory?>(nil)

    /// A server shared by all tests of the process, started on first use. Its root is a
    /// temporary directory holding `fixtures` (a link to Tests/Fixtures); a test that serves
    /// files of its own writes them under a subdirectory named after itself
    /// (see `makeDirectory`), and uses URLs of its own for fault counters.
    public static func shared() throws -> FaultServer {
        try sharedServer.get()
    }

    /// Creates (if needed) the directory `root/name` and returns it.
    public func makeDirectory(_ name: String) throws -> URL {
        let dir = root.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

private let sharedRootPath = Mutex<String?>(nil)

/// Tests/Fixtures, found from this source file's location.
public let fixturesURL: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

/// The URL of a file in Tests/Fixtures.
public func fixture(_ name: String) -> URL { fixturesURL.appendingPathComponent(name) }

/// A minimal blocking HTTP/1.1 client over a loopback socket (`Connection: close`).
enum MiniHTTP {
    static func request(
        port: Int, method: String, target: String, headers: [String: String],
        timeout: TimeInterval
    ) throws -> HTTPResponse {
        var (fd, address) = try loopbackSocket(port: port)
        defer { close(fd) }

        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))

        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            throw TestSupportError(
                "connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }

        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        request += "Connection: close\r\nUser-Agent: TestSupport\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw TestSupportError("send to fault server: \(String(cString: strerror(errno)))")
            }
            sent += n
        }

        // Read to EOF: the server closes after a `Connection: close` response.
        var raw = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                raw.append(contentsOf: buffer[0..<n])
            } else if n == 0 || errno == ECONNRESET {
                break
            } else if errno == EINTR {
                continue
            } else {
                throw TestSupportError(
                    "reading \(target) from the fault server: \(String(cString: strerror(errno)))")
            }
        }

        guard let split = raw.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw TestSupportError("malformed response to \(target): \(raw.count) bytes")
        }
        let head = String(decoding: raw[raw.startIndex..<split.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestSupportError("malformed status line in response to \(target)")
        }
        let fields = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]),
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        var body = Data(raw[split.upperBound...])
        if method != "HEAD",
            let length = fields.first(where: { $0.name.lowercased() == "content-length" })
                .flatMap({ Int($0.value) }), body.count > length
        {
            body = body.prefix(length)
        }
        return HTTPResponse(status: status, headers: fields, body: body)
    }
}
