import Foundation

/// Where a command's words go: results to stdout, diagnostics and progress to stderr.
struct Output {
    /// `--quiet`: nothing but errors.
    let quiet: Bool
    /// True when stderr is a terminal, so a progress bar can redraw in place.
    let stderrIsTerminal: Bool

    /// A result line on stdout (kept under --quiet only when `always`, e.g. for --json).
    func print(_ text: String, always: Bool = false) {
        guard always || !quiet else { return }
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A note on stderr (hidden by --quiet).
    func note(_ text: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// An error line on stderr, never hidden.
    func error(_ text: String) {
        FileHandle.standardError.write(Data(("podcli: " + text + "\n").utf8))
    }

    /// Raw text on stderr, for the progress bar.
    func stderr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
