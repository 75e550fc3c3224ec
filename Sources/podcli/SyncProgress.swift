import Dispatch
import PodcliKit
import Synchronization

/// What `sync` shows while it works. On a terminal (and not --quiet): one status line on stderr,
/// redrawn at most ten times a second, with each result printed above it. Elsewhere (cron, a pipe):
/// the result lines only. Safe to call from every worker thread.
final class SyncProgress: SyncReporter {
    private struct State {
        var total = 0
        var finished = 0
        /// Bytes so far and expected, of each download running.
        var running: [Int: (received: Int, total: Int?)] = [:]
        var startedBytes = 0
        var started: UInt64 = 0
        var lastDraw: UInt64 = 0
        var drawn = false
    }

    private let output: Output
    private let live: Bool
    private let state = Mutex(State())

    init(output: Output) {
        self.output = output
        live = output.stderrIsTerminal && !output.quiet
    }

    /// Downloads are starting.
    func downloadsBegin(total: Int) {
        state.withLock {
            $0.total = total
            $0.started = DispatchTime.now().uptimeNanoseconds
        }
    }

    func downloadProgress(_ id: Int, received: Int, total: Int?) {
        guard live else { return }
        state.withLock { state in
            state.running[id] = (received, total)
            let now = DispatchTime.now().uptimeNanoseconds
            guard now - state.lastDraw >= 100_000_000 else { return }
            state.lastDraw = now
            draw(&state, now: now)
        }
    }

    func downloadEnded(_ id: Int) {
        state.withLock { state in
            if let running = state.running.removeValue(forKey: id) { state.startedBytes += running.received }
            state.finished += 1
        }
    }

    /// A result line on stdout, above the status line.
    func result(_ line: String) {
        state.withLock { state in
            clear(&state)
            output.print(line)
            if live && state.total > 0 { draw(&state, now: DispatchTime.now().uptimeNanoseconds) }
        }
    }

    /// An error line on stderr (never hidden), above the status line.
    func failure(_ line: String) {
        state.withLock { state in
            clear(&state)
            output.error(line)
        }
    }

    /// A note on stderr (hidden by --quiet), above the status line.
    func note(_ line: String) {
        state.withLock { state in
            clear(&state)
            output.note(line)
        }
    }

    func finish() { state.withLock { clear(&$0) } }

    private func clear(_ state: inout State) {
        guard state.drawn else { return }
        output.stderr("\r\u{1B}[2K")
        state.drawn = false
    }

    /// "Downloading 3 of 50: 45.2 MiB, 8.1 MiB/s".
    private func draw(_ state: inout State, now: UInt64) {
        let received = state.startedBytes + state.running.values.reduce(0) { $0 + $1.received }
        let seconds = max(Double(now - state.started) / 1e9, 0.001)
        let current = min(state.finished + 1, state.total)
        var line = "Downloading \(current) of \(state.total): \(Formatting.bytes(received))"
        if seconds > 0.5 { line += ", \(Formatting.bytes(Int(Double(received) / seconds)))/s" }
        output.stderr("\r\u{1B}[2K" + line)
        state.drawn = true
    }
}
