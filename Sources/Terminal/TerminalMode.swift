#if canImport(Glibc)
    import Glibc
#endif

/// One owner of a terminal's saved settings: switches it to the raw-ish mode a player reads keys in,
/// and puts the saved settings back.
///
/// Raw here means no line buffering (ICANON), no echo (ECHO) and no ^V literal-next (IEXTEN), one
/// byte at a time (VMIN 1, VTIME 0). ISIG stays on, so ^C and ^Z still raise SIGINT and SIGTSTP,
/// and output processing (OPOST) stays on, so "\n" still returns the carriage. Hiding the cursor
/// is the caller's business, not this type's.
///
/// Not `Sendable`: the player's thread owns it; signals reach that thread as commands (for
/// Ctrl-Z it restores, and after SIGCONT it re-enters raw mode), so no second thread touches it.
public final class TerminalMode {
    public let descriptor: Int32
    /// The settings found when this was created; what `restore()` puts back.
    private let saved: termios
    /// Whether this put the terminal in raw mode and has not restored it since.
    public private(set) var isRaw = false

    /// Reads the terminal's settings, or returns nil when the descriptor is not a terminal (a pipe,
    /// a file), where there is no mode to change.
    public init?(descriptor: Int32) {
        var settings = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        saved = settings
    }

    deinit { restore() }

    /// Switches to raw mode. Typed-ahead input is kept (TCSANOW, not TCSAFLUSH).
    /// - Throws: `TerminalError.cannotSetMode` with `tcsetattr`'s errno.
    public func enterRaw() throws(TerminalError) {
        var raw = saved
        // c_lflag is tcflag_t (UInt32) while the flags import as Int32.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        // c_cc imports as a tuple, so index its bytes.
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard Self.set(descriptor, raw) else { throw .cannotSetMode(errno: errno) }
        isRaw = true
    }

    /// Puts the saved settings back if this changed them. Idempotent and non-throwing, so every exit
    /// path (normal end, error, SIGTSTP, SIGINT, deinit) can call it; a failure there has no one
    /// left to tell.
    public func restore() {
        guard isRaw else { return }
        _ = Self.set(descriptor, saved)
        isRaw = false
    }

    /// `tcsetattr(TCSANOW)`, retried when a signal interrupts it.
    private static func set(_ descriptor: Int32, _ settings: termios) -> Bool {
        var settings = settings
        while tcsetattr(descriptor, TCSANOW, &settings) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}
