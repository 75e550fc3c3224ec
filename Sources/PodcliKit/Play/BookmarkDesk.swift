import Dispatch
import Synchronization

/// Bookmarks asked for on the control socket (`podcli bookmark`): each request waits, on the
/// socket's thread, for the player's thread to record it and answer with the reply to send.
public final class BookmarkDesk: Sendable {
    private struct Waiting {
        var nextTicket = 1
        var answered: [Int: DispatchSemaphore] = [:]
        var replies: [Int: String] = [:]
    }
    private let waiting = Mutex(Waiting())

    /// How long a request waits for its record: the player handles commands between two writes
    /// (within 25 ms), and the client gives up on the whole exchange after `ControlClient.timeout`.
    static let wait = 0.75

    public init() {}

    /// A new request's ticket, for `PlayerCommand.bookmark`.
    func open() -> Int {
        waiting.withLock { waiting in
            let ticket = waiting.nextTicket
            waiting.nextTicket += 1
            waiting.answered[ticket] = DispatchSemaphore(value: 0)
            return ticket
        }
    }

    /// The player's answer to `ticket`; dropped when its request gave up waiting.
    public func answer(_ ticket: Int, with reply: String) {
        waiting.withLock { waiting in
            guard let answered = waiting.answered[ticket] else { return }
            waiting.replies[ticket] = reply
            answered.signal()
        }
    }

    /// Waits up to `wait` for the answer to `ticket`; nil when none came.
    func reply(to ticket: Int) -> String? {
        guard let answered = waiting.withLock({ $0.answered[ticket] }) else { return nil }
        _ = answered.wait(timeout: .now() + Self.wait)
        return waiting.withLock { waiting in
            waiting.answered[ticket] = nil
            return waiting.replies.removeValue(forKey: ticket)
        }
    }
}
