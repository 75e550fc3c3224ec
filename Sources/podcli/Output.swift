import PodcliKit

#if canImport(Glibc)
    import Glibc
#endif

/// Where a command's words go: results to stdout, diagnostics and progress to stderr.
struct Output {
    /// `--quiet`: nothing but errors.
    let quiet: Bool
    /// True when stderr is a terminal, so a progress bar can redraw in place.
    let stderrIsTerminal: Bool
    /// What a closed stdout means: the end of a command that only prints (exit quietly), or for
    /// one that must save its state first (`play`), a write that fails and says so.
    var exitsWhenStdoutCloses = true

    /// Nothing but errors, and no progress: for work done on a thread of its own.
    static let silent = Output(quiet: true, stderrIsTerminal: false)

    /// A result line on stdout (kept under --quiet only when `always`, e.g. for --json); false
    /// when stdout has closed.
    @discardableResult
    func print(_ text: String, always: Bool = false) -> Bool {
        guard always || !quiet else { return true }
        return Self.write(text + "\n", to: STDOUT_FILENO, exitOnClosedStdout: exitsWhenStdoutCloses)
    }

    /// A note on stderr (hidden by --quiet).
    func note(_ text: String) {
        guard !quiet else { return }
        Self.write(text + "\n", to: STDERR_FILENO)
    }

    /// An error line on stderr, never hidden.
    func error(_ text: String) {
        Self.write("podcli: " + text + "\n", to: STDERR_FILENO)
    }

    /// Raw text on stdout, for the now-playing line; false when stdout has closed.
    @discardableResult
    func stdout(_ text: String) -> Bool {
        Self.write(text, to: STDOUT_FILENO, exitOnClosedStdout: exitsWhenStdoutCloses)
    }

    /// Raw text on stderr, for the progress bar.
    func stderr(_ text: String) {
        Self.write(text, to: STDERR_FILENO)
    }

    /// Writes all of `text`; false when it could not. When the reader of stdout has gone
    /// (`podcli list | head`), the results have no one to go to: exit quietly, as `head`'s other
    /// writers do, instead of crashing (unless told not to). A closed stderr only loses that line.
    @discardableResult
    static func write(_ text: String, to descriptor: Int32, exitOnClosedStdout: Bool = true) -> Bool {
        var text = text
        guard text.withUTF8({ writeAll(UnsafeRawBufferPointer($0), to: descriptor) }) else {
            if errno == EPIPE && descriptor == STDOUT_FILENO && exitOnClosedStdout { exit(0) }
            return false
        }
        return true
    }

    /// Writes all of `bytes`, through short writes and signals; false (with errno set) when it
    /// could not.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += count
        }
        return true
    }
}
