import CSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The word that a piece of work should stop: given once, seen by every thread that looks, and
/// readable as a descriptor, so a thread blocked in poll(2) (on a socket, a terminal, a bus, a
/// transfer) wakes at once rather than at its next timeout. One owner of an eventfd.
public final class StopEvent: Sendable {
    /// Readable once the event is signalled, for ever after (it is never read).
    public let descriptor: Int32
    private let signalled = Atomic(false)

    public init() {
        let descriptor = csystem_event_new()
        // Only a process out of descriptors gets here; nothing could be stopped without one.
        guard descriptor >= 0 else { fatalError("cannot make an eventfd: \(String(cString: strerror(errno)))") }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Tells every waiter to stop. Idempotent.
    public func signal() {
        guard !signalled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Whether `signal` was called (no system call: cheap enough for a transfer's callbacks).
    public var isSignalled: Bool { signalled.load(ordering: .acquiring) }

    /// Sleeps `seconds`, unless told to stop first; returns false when stopped.
    public func sleep(seconds: Double) -> Bool {
        var none: [pollfd] = []
        return wait(for: &none, timeout: seconds)
    }

    /// Waits until one of `descriptors` is ready (their `revents` say which), `timeout` seconds
    /// pass (nil: no limit), or the event is signalled.
    /// - Returns: false when stopped, else true.
    public func wait(for descriptors: inout [pollfd], timeout: Double?) -> Bool {
        var all = descriptors + [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        let milliseconds = timeout.map { Int32(min(max(0, ($0 * 1000).rounded(.up)), Double(Int32.max))) } ?? -1
        while !isSignalled {
            let ready = poll(&all, nfds_t(all.count), milliseconds)
            if ready < 0 && errno == EINTR { continue }
            for index in descriptors.indices { descriptors[index].revents = all[index].revents }
            // A failed poll (EINVAL, ENOMEM) reports as a timeout: the caller's loop looks again.
            break
        }
        return !isSignalled
    }
}
