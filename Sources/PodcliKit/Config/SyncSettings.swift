/// What `sync` does for every feed at once.
public struct SyncSettings: Equatable, Sendable {
    public var jobs = 4
    /// Connections to one host at a time while refreshing feeds: politeness to a host that serves many.
    public var hostConnections = 1
    /// The most all recorded episodes may weigh; nil for no budget.
    public var diskBudget: Int?
    /// Nothing is downloaded when less than this would be left free.
    public var minFree = 512 * 1024 * 1024
    /// Bytes per second for all downloads together; nil for no limit.
    public var limitRate: Int?
    /// No download goes on past this size or time: what stops a live stream that never ends.
    public var streamMaxSize = 1024 * 1024 * 1024
    public var streamMaxTime = 3 * 3600
}
