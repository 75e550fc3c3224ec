#if canImport(Glibc)
    import Glibc
#endif

/// The word that something a waiter watches has changed: a writer `signal`s after every change,
/// and a waiter sleeps until its condition holds, looking again only when told. (A reader of a
/// file still downloading waits this way, rather than looking every few milliseconds.)
///
/// The condition is evaluated with the signal's mutex held and `signal` takes that mutex, so a
/// change made before a `signal` is never missed between a look and the sleep. A condition may
/// take other locks; nothing holding them may call `signal` (which takes only this one).
public final class ChangeSignal: @unchecked Sendable {
    // @unchecked: the mutex and condition variable are used only through pthread calls.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// Wakes every waiter to look at its condition again.
    public func signal() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// Returns once `condition` holds, evaluating it now and after each `signal`.
    public func wait(until condition: () -> Bool) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !condition() { pthread_cond_wait(changed, mutex) }
    }
}
