#if canImport(Glibc)
    import Glibc
#endif

/// One owner of a pthread mutex and the condition variable waited on with it: for state that
/// threads change under the mutex and wait on for a change (Swift's `Mutex` has no condition).
public final class Condition: @unchecked Sendable {
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

    /// Runs `body` with the mutex held.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// With the mutex held (inside `withLock`): releases it until woken, then holds it again.
    /// A wake may be spurious: look at the state again.
    public func waitLocked() { pthread_cond_wait(changed, mutex) }

    /// Wakes one waiter; call it with the mutex held.
    public func wakeOne() { pthread_cond_signal(changed) }

    /// Wakes every waiter; call it with the mutex held.
    public func wakeAll() { pthread_cond_broadcast(changed) }
}
