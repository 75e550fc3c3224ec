import FoundationEssentials
import PodcliKit

/// A one-line download progress bar on a terminal: bytes, rate, ETA. Draws nothing when stderr
/// is not a terminal or under --quiet, so cron mail and pipes stay clean.
final class ProgressBar {
    private let output: Output
    private let enabled: Bool
    private let label: String
    private var lastDraw = 0.0
    private var started = Date().timeIntervalSince1970
    private var startBytes: Int?
    private var drawn = false

    init(output: Output, label: String) {
        self.output = output
        self.label = label
        enabled = output.stderrIsTerminal && !output.quiet
    }

    /// Notes progress; redraws at most ten times a second.
    func update(received: Int, total: Int?) {
        guard enabled else { return }
        let now = Date().timeIntervalSince1970
        if startBytes == nil {
            startBytes = received
            started = now
        }
        guard now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let elapsed = max(now - started, 0.001)
        let rate = Double(received - (startBytes ?? 0)) / elapsed
        var line = "\(label) \(Formatting.bytes(received))"
        if let total, total > 0 {
            let fraction = min(1, Double(received) / Double(total))
            let width = 20
            let filled = Int(fraction * Double(width))
            line +=
                " / \(Formatting.bytes(total)) [" + String(repeating: "#", count: filled)
                + String(repeating: "-", count: width - filled) + "] "
                + Formatting.rightAligned("\(Int(fraction * 100))", width: 3) + "%"
            if rate > 0 { line += "  ETA " + Formatting.duration(seconds: Int(Double(total - received) / rate)) }
        }
        if rate > 0 { line += "  \(Formatting.bytes(Int(rate)))/s" }
        output.stderr("\r\u{1B}[2K" + line)
        drawn = true
    }

    /// Clears the bar so the next line starts clean.
    func finish() {
        guard drawn else { return }
        output.stderr("\r\u{1B}[2K")
        drawn = false
    }
}
