import Dispatch
import Synchronization
import Threads

/// Commands on their way to the player, from any thread (the key reader, signal handlers, a
/// control socket) to the one thread that plays. Posting never blocks; the player collects them
/// between two writes, or waits for one while paused.
public final class CommandQueue: Sendable {
    private struct State {
        var pending: [PlayerCommand] = []
        /// The player sleeps on `arrived`: a post must wake it.
        var isWaiting = false
        /// Signalled at every post, for waits outside the player's loop (see `isStopPending`).
        var watchers: [ChangeSignal] = []
    }

    private let state = Mutex(State())
    private let arrived = DispatchSemaphore(value: 0)

    public init() {}

    public func post(_ command: PlayerCommand) {
        let (wake, watchers) = state.withLock { state in
            state.pending.append(command)
            return (state.isWaiting, state.watchers)
        }
        if wake { arrived.signal() }
        for watcher in watchers { watcher.signal() }
    }

    /// Signals `watcher` at every post from now on, so a wait that also ends on a stop command
    /// (`isStopPending`) hears it at once.
    public func signalEveryPost(_ watcher: ChangeSignal) {
        state.withLock { state in
            if !state.watchers.contains(where: { $0 === watcher }) { state.watchers.append(watcher) }
        }
    }

    /// Puts commands taken but not carried out back in front of the queue, in their order: those
    /// that came after a command that ended the episode are for what plays next.
    public func giveBack(_ commands: [PlayerCommand]) {
        guard !commands.isEmpty else { return }
        state.withLock { $0.pending.insert(contentsOf: commands, at: 0) }
    }

    /// True when a command waiting to be taken stops the player (quit, a signal): for waits
    /// outside the player's loop, such as a stream that has not arrived yet.
    public var isStopPending: Bool {
        state.withLock { $0.pending.contains(where: \.endsTheSession) }
    }

    /// The commands posted so far, oldest first; when there are none, waits up to `timeout`
    /// seconds for one (0: does not wait).
    ///
    /// Called between two writes, it makes no system call: only a wait touches the semaphore.
    /// (Draining it with `wait(timeout: .now())` at every call, as this once did, is a futex wait
    /// with a deadline libdispatch converts to the realtime clock: on a VM whose clocks drift,
    /// each one slept about 0.5 ms, and an hour decoded at full speed took twice the CPU.)
    public func take(waitingUpTo timeout: Double = 0) -> [PlayerCommand] {
        let mustWait =
            timeout > 0
            && state.withLock { state in
                guard state.pending.isEmpty else { return false }
                state.isWaiting = true
                return true
            }
        if mustWait {
            _ = arrived.wait(timeout: .now() + timeout)
            // A post between the timeout and here signalled after all: the next wait returns at
            // once, one spurious wake, which costs the player one turn of its loop.
            state.withLock { $0.isWaiting = false }
        }
        return state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
    }
}
