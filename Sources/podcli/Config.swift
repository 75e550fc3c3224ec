import EpisodeStore
import FoundationEssentials
import Strings

/// podcli's configuration file: `key = value` lines, `#` comments, blank lines ignored.
///
/// Known keys (more come with later features):
/// - `protection = private|open`: the protection class of new downloads.
/// - `device = NAME`: the ALSA device `play` uses (default `default`).
/// - `skip-back = SECONDS`, `skip-forward = SECONDS`: what ← and → jump while playing (15, 30).
struct Config {
    var protection: Protection = .private
    var device: String?
    var skipBack = 15.0
    var skipForward = 30.0

    /// Reads `path`; a missing file is the defaults.
    /// - Throws: `CommandFailure` (usage) naming the file and line of a bad key or value.
    init(path: String) throws(CommandFailure) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        let text = String(decoding: data, as: UTF8.self)
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let location = "\(path):\(index + 1)"
            guard let equals = line.firstIndex(of: "=") else {
                throw CommandFailure(description: "\(location): expected 'key = value'", exitCode: .usage)
            }
            let key = line[..<equals].trimmingWhitespace()
            let value = line[line.index(after: equals)...].trimmingWhitespace()
            switch key {
            case "protection":
                guard let protection = Protection(rawValue: value) else {
                    throw CommandFailure(
                        description: "\(location): protection must be private or open, not '\(value)'", exitCode: .usage
                    )
                }
                self.protection = protection
            case "device":
                guard !value.isEmpty else {
                    throw CommandFailure(description: "\(location): device needs a name", exitCode: .usage)
                }
                device = value
            case "skip-back", "skip-forward":
                guard let seconds = Double(value), seconds > 0, seconds <= 3600 else {
                    throw CommandFailure(
                        description: "\(location): \(key) must be seconds between 1 and 3600, not '\(value)'",
                        exitCode: .usage)
                }
                if key == "skip-back" { skipBack = seconds } else { skipForward = seconds }
            default:
                throw CommandFailure(description: "\(location): unknown key '\(key)'", exitCode: .usage)
            }
        }
    }
}
