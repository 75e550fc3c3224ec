#if canImport(Glibc)
    import Glibc
#endif

/// The files podcli writes where someone else may have been first (`sync.lock`, `sync.log`, in a
/// directory others might write to): opened, or made 0600, only as a regular file of this user's.
/// A link is never followed (a planted one would make podcli write over where it points), a FIFO
/// never blocks the open, and another user's file is left alone.
enum OwnFile {
    /// A descriptor for `path`, opened with `flags` (plus creation, 0600, if it is missing).
    /// - Throws: `.refused` with the reason a user reads, or `.failed` with errno.
    static func open(_ path: String, flags: Int32) throws(Failure) -> Int32 {
        let descriptor = Glibc.open(path, flags | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        var info = stat()
        guard descriptor >= 0 else {
            // A link (ELOOP), a directory (EISDIR), a FIFO with no reader (ENXIO): say what is there.
            let code = errno
            if lstat(path, &info) == 0, let reason = refusal(info) {
                throw .refused(.notOwnFile(path: path, reason: reason))
            }
            throw .failed(errno: code)
        }
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw .failed(errno: code)
        }
        if let reason = refusal(info) {
            close(descriptor)
            throw .refused(.notOwnFile(path: path, reason: reason))
        }
        return descriptor
    }

    private static func refusal(_ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return "it is a link"
        case S_IFREG: return info.st_uid == geteuid() ? nil : "it belongs to another user (uid \(info.st_uid))"
        default: return "it is not a regular file"
        }
    }

    enum Failure: Error {
        /// Not podcli's to write (`PodcliError.notOwnFile`).
        case refused(PodcliError)
        /// The open itself failed.
        case failed(errno: Int32)
    }
}
