#if canImport(Glibc)
    import Glibc
#endif

/// The Linux counterpart of iOS file protection classes, enforced with POSIX modes.
///
/// The class itself is podcli's data (recorded in SQLite): Linux has no protection attribute to
/// read back, so `podcli verify` compares the modes on disk with the ones the class implies.
public enum Protection: String, Sendable, CaseIterable {
    /// Any local user or service may read the episode (directory 0755, files 0644).
    case open
    /// Only the owner may read it (directory 0700, files 0600). The default.
    case `private`

    public var directoryMode: mode_t { self == .open ? 0o755 : 0o700 }
    public var fileMode: mode_t { self == .open ? 0o644 : 0o600 }
}
