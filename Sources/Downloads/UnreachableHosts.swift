import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A host that could not be reached at all: it refused the connection, its name did not
/// resolve, or there was no route to it. Not a server's answer, so not the feed's or the
/// episode's fault.
public struct UnreachableHost: Sendable, Equatable, CustomStringConvertible {
    /// "host:port", as it is shown.
    public let name: String
    public let reason: Reason

    public enum Reason: Sendable, Equatable {
        case refused
        /// The name did not resolve (no such host, or no DNS server to ask).
        case notFound
        /// Any other failure to connect, in the system's words ("No route to host").
        case other(String)
    }

    public init(name: String, reason: Reason) {
        self.name = name
        self.reason = reason
    }

    /// "127.0.0.1:8080 refused the connection", "nonexistent.invalid:80 could not be found".
    public var description: String {
        switch reason {
        case .refused: return "\(name) refused the connection"
        case .notFound: return "\(name) could not be found (its name does not resolve)"
        case .other(let words): return "\(name) could not be reached (\(words))"
        }
    }

    /// The host and port `url` connects to ("example.com:443"), lowercased; nil for a URL that
    /// names no http or https host.
    static func name(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        guard let port else { return nil }
        return "\(host):\(port)"
    }
}

/// The hosts one run found unreachable, shared by every transfer of the run (a `DownloadPolicy`
/// carries it): once a host refused a connection or its name did not resolve, the run's later
/// transfers to it fail at once, without trying it or retrying. A laptop with no network then
/// spends one failed connection per host, not a second of retries per feed.
///
/// Made per run by whoever runs the transfers and passed in; never global (a player that stays
/// open for hours must not keep one).
public final class UnreachableHosts: Sendable {
    private let hosts = Mutex([String: UnreachableHost]())

    public init() {}

    /// The remembered failure of the host `url` connects to, if any.
    func failure(for url: String) -> UnreachableHost? {
        guard let name = UnreachableHost.name(of: url) else { return nil }
        return hosts.withLock { $0[name] }
    }

    func remember(_ host: UnreachableHost) {
        hosts.withLock { $0[host.name] = $0[host.name] ?? host }
    }
}
