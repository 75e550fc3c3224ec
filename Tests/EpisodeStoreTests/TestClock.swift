import EpisodeStore
import Synchronization

/// A clock a test sets: the time (Unix seconds) a library given `reading` takes for now.
final class TestClock: Sendable {
    private let seconds: Mutex<Int>

    init(_ seconds: Int) { self.seconds = Mutex(seconds) }

    var now: Int {
        get { seconds.withLock { $0 } }
        set { seconds.withLock { $0 = newValue } }
    }

    var reading: @Sendable () -> Int { { [self] in now } }
}
