import PodcliKit
import Synchronization

/// A `SyncReporter` that keeps everything a sync tells it, from whichever worker thread.
final class RecordingReporter: SyncReporter {
    struct Record {
        var results: [String] = []
        var failures: [String] = []
        var notes: [String] = []
        /// The totals `downloadsBegin` was told, once a sync.
        var downloadsBegun: [Int] = []
        /// Progress calls, by download.
        var progress: [Int: Int] = [:]
        /// Downloads told ended, in order.
        var ended: [Int] = []
        var finished = 0
    }

    private let record = Mutex(Record())

    var told: Record { record.withLock { $0 } }

    func result(_ line: String) { record.withLock { $0.results.append(line) } }
    func failure(_ line: String) { record.withLock { $0.failures.append(line) } }
    func note(_ line: String) { record.withLock { $0.notes.append(line) } }
    func downloadsBegin(total: Int) { record.withLock { $0.downloadsBegun.append(total) } }

    func downloadProgress(_ id: Int, received: Int, total: Int?) {
        record.withLock { $0.progress[id, default: 0] += 1 }
    }

    func downloadEnded(_ id: Int) { record.withLock { $0.ended.append(id) } }
    func finish() { record.withLock { $0.finished += 1 } }
}

/// The clock a `Synchronizer` reads: fixed where a test put it, moved on when the test says so.
final class TestClock: Sendable {
    private let seconds: Mutex<Int>

    init(_ seconds: Int) { self.seconds = Mutex(seconds) }

    var now: Int { seconds.withLock { $0 } }

    func advance(by delta: Int) { seconds.withLock { $0 += delta } }
}
