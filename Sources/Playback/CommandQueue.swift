import Dispatch
import Synchronization

/// Commands on their way to the player, from any thread (the key reader, signal handlers, a
/// control socket) to the one thread that plays. Posting never blocks; the player collects them
/// between two writes, or waits for one while paused.
public final class CommandQueue: Sendable {
    private let pending = Mutex<[PlayerCommand]>([])
    private let arrived = DispatchSemaphore(value: 0)

    public init() {}

    public func post(_ command: PlayerCommand) {
        pending.withLock { $0.append(command) }
        arrived.signal()
    }

    /// True when a command waiting to be taken stops the player (quit, a signal): for waits
    /// outside the player's loop, such as a stream that has not arrived yet.
    public var isStopPending: Bool {
        pending.withLock { pending in
            pending.contains {
                switch $0 {
                case .quit, .signal: return true
                default: return false
                }
            }
        }
    }

    /// The commands posted so far, oldest first; when there are none, waits up to `timeout`
    /// seconds for one (0: does not wait).
    public func take(waitingUpTo timeout: Double = 0) -> [PlayerCommand] {
        if pending.withLock({ $0.isEmpty }) && timeout > 0 { _ = arrived.wait(timeout: .now() + timeout) }
        // Each post signalled once: take the signals with the commands, so a later wait does not
        // wake for commands already taken.
        while arrived.wait(timeout: .now()) == .success {}
        return pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }
}
