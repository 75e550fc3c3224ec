import Downloads

extension Error {
    /// The host that could not be reached at all (refused, no such name, no route), when that
    /// is what stopped the work: an outage, not the feed's or the episode's fault, so nothing is
    /// held against them (no failure counted, no backoff).
    public var unreachableHost: UnreachableHost? { (self as? DownloadError)?.unreachableHost }
}

/// The work of a command that its hosts' outage left undone, told in one line for all rather
/// than one per feed: "no server could be reached: 1000 feeds not refreshed (127.0.0.1:8080
/// refused the connection)".
public struct Unreached: Sendable {
    /// What was left undone, in the order first met ("feed", "not refreshed"), and how much.
    private var undone: [(noun: String, verb: String, count: Int)] = []
    private var hosts: [UnreachableHost] = []
    /// The first error met: the exit code follows it (69, the network's).
    public private(set) var cause: (any Error & Sendable)?

    public init() {}

    /// One piece of work (`noun`, e.g. "feed") left `verb` (e.g. "not refreshed") by `error`;
    /// false (and nothing added) when `error` is not an unreachable host.
    public mutating func add(_ error: any Error, noun: String, verb: String) -> Bool {
        guard let host = error.unreachableHost, let error = error as? DownloadError else { return false }
        cause = cause ?? error
        if !hosts.contains(host) { hosts.append(host) }
        if let index = undone.firstIndex(where: { $0.noun == noun && $0.verb == verb }) {
            undone[index].count += 1
        } else {
            undone.append((noun, verb, 1))
        }
        return true
    }

    public var isEmpty: Bool { undone.isEmpty }

    /// How many pieces of work were left undone.
    public var count: Int { undone.reduce(0) { $0 + $1.count } }

    /// How many of `noun` ("feed") were left undone.
    public func count(of noun: String) -> Int { undone.reduce(0) { $0 + ($1.noun == noun ? $1.count : 0) } }

    /// The line telling it; `nothingReached` when no other work of the command reached a server
    /// either (a laptop with no network, or every feed on one host that is down).
    public func line(nothingReached: Bool) -> String {
        let work = undone.map { Formatting.count($0.count, $0.noun) + " " + $0.verb }.joined(separator: ", ")
        var why = hosts.prefix(2).map(\.description).joined(separator: ", ")
        if hosts.count > 2 { why += ", and " + Formatting.count(hosts.count - 2, "other host") }
        return (nothingReached ? "no server could be reached: " : "") + work + " (\(why))"
    }
}
