import PodcliKit
import Strings

#if canImport(Glibc)
    import Glibc
#endif

/// Where a command's words go: results to stdout, diagnostics and progress to stderr.
///
/// Every line passes `PrintableText` on its way out (no control characters, no passwords in
/// URLs), whatever a feed put in the titles and URLs it carries; documents (JSON, OPML) escape
/// theirs instead. Only the raw `stdout`/`stderr` writes, of lines podcli draws itself, do not.
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

    /// A result line on stdout (kept under --quiet only when `always`); false when stdout has
    /// closed.
    @discardableResult
    func print(_ text: String, always: Bool = false) -> Bool {
        guard always || !quiet else { return true }
        return Self.write(PrintableText.line(text) + "\n", to: STDOUT_FILENO, exitOnClosedStdout: exitsWhenStdoutCloses)
    }

    /// A JSON document on stdout, kept under --quiet; false when stdout has closed.
    @discardableResult
    func json(_ document: String) -> Bool {
        Self.write(PrintableText.json(document) + "\n", to: STDOUT_FILENO, exitOnClosedStdout: exitsWhenStdoutCloses)
    }

    /// A document of lines (OPML) on stdout, kept under --quiet, passwords hidden unless told.
    func document(_ text: String, hidingPasswords: Bool = true) {
        let text = PrintableText.lines(text, hidingPasswords: hidingPasswords)
        Self.write(text + "\n", to: STDOUT_FILENO, exitOnClosedStdout: exitsWhenStdoutCloses)
    }

    /// A note on stderr (hidden by --quiet).
    func note(_ text: String) {
        guard !quiet else { return }
        Self.write(PrintableText.line(text) + "\n", to: STDERR_FILENO)
    }

    /// An error line on stderr, never hidden.
    func error(_ text: String) {
        Self.write("podcli: " + PrintableText.line(text) + "\n", to: STDERR_FILENO)
    }

    /// Raw text on stdout, for the now-playing line (`NowPlayingLine` blanks its controls) and
    /// `StdoutBuffer`; false when stdout has closed.
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
