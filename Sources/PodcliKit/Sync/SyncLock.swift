import Strings

#if canImport(Glibc)
    import Glibc
#endif

/// One `podcli sync` at a time per data directory: an exclusive `flock` on `<data>/sync.lock`,
/// which the kernel drops however the holder ends (even `kill -9`). The holder's pid is written in
/// it so the one turned away can say who holds it. Other commands never take it.
public final class SyncLock {
    private let descriptor: Int32

    /// - Parameter wait: wait for the holder to finish instead of failing.
    /// - Throws: `PodcliError.syncRunning` when another sync holds the lock and `wait` is false,
    ///   `.notOwnFile` when `sync.lock` is a link, not a regular file or another user's (the
    ///   pid would be written through it), `.syncLock` when it cannot be opened or taken.
    public init(directory: String, wait: Bool) throws {
        let path = directory + "/sync.lock"
        do throws(OwnFile.Failure) {
            descriptor = try OwnFile.open(path, flags: O_RDWR)
        } catch {
            switch error {
            case .refused(let refusal): throw refusal
            case .failed(let code): throw PodcliError.syncLock(path: path, errno: code)
            }
        }
        while flock(descriptor, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            let holder = Self.holder(descriptor)
            close(descriptor)
            guard code == EWOULDBLOCK else {
                throw PodcliError.syncLock(path: path, errno: code)
            }
            throw PodcliError.syncRunning(pid: holder)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.utf8.count, 0)
    }

    deinit { close(descriptor) }

    private static func holder(_ descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer.prefix(count), as: UTF8.self).trimmingWhitespaceAndNewlines())
    }
}
