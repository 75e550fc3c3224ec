#if canImport(Glibc)
    import Glibc
#endif

/// Where a command's words go: results to stdout, diagnostics and progress to stderr.
struct Output {
    /// `--quiet`: nothing but errors.
    let quiet: Bool
    /// True when stderr is a terminal, so a progress bar can redraw in place.
    let stderrIsTerminal: Bool

    /// A result line on stdout (kept under --quiet only when `always`, e.g. for --json).
    func print(_ text: String, always: Bool = false) {
        guard always || !quiet else { return }
        Self.write(text + "\n", to: STDOUT_FILENO)
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

    /// Raw text on stdout, for the now-playing line.
    func stdout(_ text: String) {
        Self.write(text, to: STDOUT_FILENO)
    }

    /// Raw text on stderr, for the progress bar.
    func stderr(_ text: String) {
        Self.write(text, to: STDERR_FILENO)
    }

    /// Writes all of `text`. When the reader of stdout has gone (`podcli list | head`), the
    /// results have no one to go to: exit quietly, as `head`'s other writers do, instead of
    /// crashing. A closed stderr only loses that line.
    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE && descriptor == STDOUT_FILENO { exit(0) }
                    return
                }
                offset += count
            }
        }
    }
}
