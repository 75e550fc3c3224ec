#if canImport(Glibc)
    import Glibc
#endif

/// A file only its owner reads, written whole or not at all: a temporary file beside it (made
/// 0600 whatever the umask, never through a link) renamed over it, so a reader never sees half.
enum PrivateFile {
    /// Writes `bytes` to `path`; nil when done, else the errno that stopped it (nothing is left).
    static func write(_ bytes: [UInt8], to path: String) -> Int32? {
        let temporary = path + ".tmp"
        // One a killed write left; unlink removes a link, never what it points to.
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errno }
        // The umask can only take bits away from 0600: fchmod puts back any it took.
        let written =
            fchmod(descriptor, 0o600) == 0 && bytes.withUnsafeBytes { Descriptor.writeAll($0, to: descriptor) }
        let writeError = errno
        close(descriptor)
        guard written else {
            unlink(temporary)
            return writeError
        }
        guard rename(temporary, path) == 0 else {
            let renameError = errno
            unlink(temporary)
            return renameError
        }
        return nil
    }
}
