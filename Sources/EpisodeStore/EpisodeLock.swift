#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive hold on one episode's directory, so two podcli processes never write the same
/// partial file. The kernel drops it when the process dies, even by `kill -9`.
public final class EpisodeLock {
    private let descriptor: Int32

    init(directory: String) throws(StoreError) {
        descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: directory, operation: "open", errno: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw .busy("another podcli is downloading into \(directory)") }
            throw .io(path: directory, operation: "lock", errno: code)
        }
    }

    deinit { close(descriptor) }

    /// True while the directory it locks is still there: the holder before may have removed it
    /// (an empty one, after a download that kept nothing) between our open and our lock.
    var isLinked: Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_nlink > 0
    }
}

extension Library {
    /// Takes the episode's lock, creating its directory if needed.
    /// - Throws: `StoreError.busy` when another process holds it.
    public func lock(_ episode: Episode) throws(StoreError) -> EpisodeLock {
        while true {
            let lock: EpisodeLock
            do {
                lock = try EpisodeLock(directory: prepareDirectory(for: episode))
            } catch .busy {
                throw .busy("another podcli is downloading #\(episode.id) \(episode.title)")
            }
            if lock.isLinked { return lock }
        }
    }

    /// Removes the episode's directory if nothing is in it.
    public func removeDirectoryIfEmpty(of episode: Episode) {
        rmdir(directory(of: episode))
    }
}
