#if canImport(Glibc)
    import Glibc
#endif

/// Why the terminal could not be put in the mode a player needs, worded so a user can act on it.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `tcsetattr` failed; `errno` is kept for its text.
    case cannotSetMode(errno: Int32)

    public var description: String {
        switch self {
        case .cannotSetMode(let code): return "cannot set the terminal mode: \(String(cString: strerror(code)))"
        }
    }
}
