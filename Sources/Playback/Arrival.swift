import Threads

/// How a file that another thread is still writing (an episode played while it downloads)
/// arrives, for its reader: a read past what is there sleeps until `changes` is signalled, then
/// looks again, until `isOver`.
public struct Arrival: Sendable {
    /// Signalled by the writer after each write and once it is done, and by whatever else can
    /// make `isOver` true.
    public let changes: ChangeSignal
    /// True once nothing more will arrive, or the reader is to stop waiting for it.
    public let isOver: @Sendable () -> Bool

    public init(changes: ChangeSignal, isOver: @escaping @Sendable () -> Bool) {
        self.changes = changes
        self.isOver = isOver
    }
}
