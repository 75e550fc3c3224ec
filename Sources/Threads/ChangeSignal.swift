/// The word that something a waiter watches has changed: a writer `signal`s after every change,
/// and a waiter sleeps until its condition holds, looking again only when told. (A reader of a
/// file still downloading waits this way, rather than looking every few milliseconds.)
///
/// The condition is evaluated with the signal's mutex held and `signal` takes that mutex, so a
/// change made before a `signal` is never missed between a look and the sleep. A condition may
/// take other locks; nothing holding them may call `signal` (which takes only this one).
public final class ChangeSignal: Sendable {
    private let condition = Condition()

    public init() {}

    /// Wakes every waiter to look at its condition again.
    public func signal() { condition.withLock { condition.wakeAll() } }

    /// Returns once `holds` is true, evaluating it now and after each `signal`.
    public func wait(until holds: () -> Bool) {
        condition.withLock {
            while !holds() { condition.waitLocked() }
        }
    }
}
