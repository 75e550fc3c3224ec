#if canImport(Glibc)
    import Glibc
#endif

extension Library {
    /// Deletes an episode: its rows and its directory, never one without the other.
    public func remove(_ episode: Episode) throws(StoreError) {
        try deleteDirectory(of: episode) { writer throws(StoreError) in
            try recordDeletion(of: episode, in: writer)
            try forgetTranscript(of: episode.id, in: writer)
            try writer.run("DELETE FROM episodes WHERE id = ?", [SQLValue(episode.id)])
        }
    }

    /// Deletes an episode's files but keeps its row, marked removed: its feed still lists it, and
    /// a row that is gone would come back as a new episode on the next refresh and be downloaded
    /// again. It leaves the queue; its position and played mark stay.
    public func removeFiles(of episode: Episode) throws(StoreError) {
        try deleteDirectory(of: episode) { writer throws(StoreError) in
            try recordDeletion(of: episode, in: writer)
            try writer.run("DELETE FROM files WHERE episode_id = ?", [SQLValue(episode.id)])
            try writer.run("DELETE FROM queue WHERE episode_id = ?", [SQLValue(episode.id)])
            // Its transcript went with the directory: `list -s` no longer finds it there.
            try forgetTranscript(of: episode.id, in: writer)
            try writer.run(
                """
                UPDATE episodes SET state = 'new', removed_at = ?, downloaded_at = NULL, validator = NULL, is_new = 0
                WHERE id = ?
                """, [SQLValue(writer.now), SQLValue(episode.id)])
        }
    }

    /// A downloaded file's deletion, for the sync server (before its row goes).
    private func recordDeletion(of episode: Episode, in writer: borrowing Writer) throws(StoreError) {
        guard try !files(of: episode).isEmpty else { return }
        try recordEpisodeAction(.delete, of: episode.id, in: writer)
    }

    /// Runs `changeRows` and deletes the episode's directory, never one without the other.
    private func deleteDirectory(
        of episode: Episode, changeRows: (borrowing Writer) throws(StoreError) -> Void
    ) throws(StoreError) {
        try deleteDirectories(of: [episode], changeRows: changeRows)
    }

    /// Runs `changeRows` and deletes the directories of `episodes`: all of it or none of it.
    ///
    /// Each directory is first renamed to a hidden trash name inside the transaction that changes
    /// the rows. If the transaction fails, they are renamed back; if podcli dies before or after
    /// the commit, the next `Library` open puts back or deletes them, as the rows say
    /// (`sweepTrash`). When one of the episodes is being played, nothing is changed.
    /// - Throws: `StoreError.busy` when a player holds one of them.
    func deleteDirectories(
        of episodes: [Episode], changeRows: (borrowing Writer) throws(StoreError) -> Void
    ) throws(StoreError) {
        // Every claim first, so a busy episode stops the removal before anything changes.
        var holds: [PlaybackHold] = []
        for episode in episodes {
            guard let hold = PlaybackHold.exclusive(episode.uuid, in: self) else {
                throw .busy("#\(episode.id) \(episode.title) is being played")
            }
            holds.append(hold)
        }
        defer { for hold in holds { hold.release(deletingLockFile: true) } }
        let moves = episodes.map { (directory(of: $0), episodesDirectory + "/" + Library.trashPrefix + $0.uuid) }
            .filter { FileSystem.exists($0.0) }
        var moved: [(String, String)] = []
        do {
            try write { writer throws(StoreError) in
                try changeRows(writer)
                for (path, trash) in moves {
                    try FileSystem.rename(path, to: trash)
                    moved.append((path, trash))
                }
            }
        } catch {
            for (path, trash) in moved where !FileSystem.exists(path) { try? FileSystem.rename(trash, to: path) }
            throw error
        }
        for (_, trash) in moves { try FileSystem.removeTree(trash) }
    }

    /// Finishes the removals a killed podcli left in the trash, as the database says they ended:
    /// a directory whose episode is still recorded with its files (the removal never committed)
    /// goes back in place, any other is deleted. A removal still running holds its episode's
    /// claim, and is left to finish; so is every entry while no claim can be made at all (no
    /// lock file: a running removal could not be told from a killed one).
    func sweepTrash() {
        for name in FileSystem.entries(episodesDirectory) where name.hasPrefix(Library.trashPrefix) {
            let uuid = String(name.dropFirst(Library.trashPrefix.count))
            guard let hold = PlaybackHold.exclusive(uuid, in: self), hold.isLocked else { continue }
            defer { hold.release(deletingLockFile: true) }
            let trash = episodesDirectory + "/" + name
            let home = episodesDirectory + "/" + uuid
            // On a database that cannot be read, keeping the files is the safe guess.
            let uncommitted = (try? stillRecorded(uuid: uuid)) ?? true
            if !uncommitted {
                try? FileSystem.removeTree(trash)
            } else if !FileSystem.exists(home) {
                try? FileSystem.rename(trash, to: home)
            } else {
                putBack(trash, into: home)
            }
        }
    }

    /// The files of a removal that never committed, into the episode's directory made again
    /// since (by a download or `play`'s artwork): what it lacks is moved in; a name it has was
    /// written there after the removal, so its file is the newer, and the trash's copy goes.
    /// Only when every file that was missing is back is the trash deleted: otherwise it is kept,
    /// and the next open tries again.
    private func putBack(_ trash: String, into home: String) {
        for name in FileSystem.entries(trash) where !FileSystem.exists(home + "/" + name) {
            guard (try? FileSystem.rename(trash + "/" + name, to: home + "/" + name)) != nil else { return }
        }
        try? FileSystem.removeTree(trash)
    }

    /// Whether the episode `uuid` is recorded as having files: its row is there, and either it has
    /// files or it was never marked removed (a partial download it had is kept too).
    private func stillRecorded(uuid: String) throws(StoreError) -> Bool {
        guard let bytes = EpisodeUUID.bytes(of: uuid) else { return false }
        return try database.rows(
            """
            SELECT 1 FROM episodes
            WHERE uuid = ? AND (removed_at IS NULL OR EXISTS (SELECT 1 FROM files WHERE episode_id = episodes.id))
            """, [.blob(bytes)]
        ).count == 1
    }
}

/// A player's claim on the episode it plays, so `sync`'s retention and `podcli rm` leave its
/// files alone: a shared `flock` on `<data>/playing/<uuid>`, which the kernel drops when the
/// player dies. A remover takes the same lock exclusively, or gives up.
public final class PlaybackHold {
    private let descriptor: Int32
    private let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Claims `episode` for playing; nil when the claim cannot be made (it is only a courtesy to
    /// removers, never a reason not to play).
    public static func shared(_ episode: Episode, in library: Library) -> PlaybackHold? {
        take(episode.uuid, in: library, operation: LOCK_SH | LOCK_NB)
    }

    /// Claims the episode `uuid` for removal; nil while a player or another remover holds it.
    static func exclusive(_ uuid: String, in library: Library) -> PlaybackHold? {
        take(uuid, in: library, operation: LOCK_EX | LOCK_NB)
    }

    private static func take(_ uuid: String, in library: Library, operation: Int32) -> PlaybackHold? {
        let directory = library.directory + "/playing"
        try? FileSystem.makeDirectory(directory, mode: 0o700)
        let path = directory + "/" + uuid
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // No claim can be made here (a read-only data directory): nothing can be playing it either.
            return operation & LOCK_EX != 0 ? PlaybackHold(descriptor: -1, path: path) : nil
        }
        guard flock(descriptor, operation) == 0 else {
            close(descriptor)
            return nil
        }
        return PlaybackHold(descriptor: descriptor, path: path)
    }

    /// Whether a lock is held: false for a removal's claim where no lock file can be made.
    var isLocked: Bool { descriptor >= 0 }

    /// Lets go; a remover also deletes the lock file, which nobody else holds.
    func release(deletingLockFile: Bool) {
        if deletingLockFile && descriptor >= 0 { unlink(path) }
    }
}
