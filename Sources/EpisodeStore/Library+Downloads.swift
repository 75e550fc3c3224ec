#if canImport(Glibc)
    import Glibc
#endif

extension Library {
    /// The suffix of a file still being downloaded.
    public static let partialSuffix = ".part"

    /// Creates the episode's directory if needed and gives it its protection's mode.
    /// - Returns: the directory's absolute path.
    @discardableResult
    public func prepareDirectory(for episode: Episode) throws(StoreError) -> String {
        let path = directory(of: episode)
        try FileSystem.makeDirectory(path, mode: episode.protection.directoryMode)
        return path
    }

    /// The episode's artwork, cached beside its audio by `podcli play`.
    public static let artworkName = ".artwork.jpg"

    public func artworkPath(of episode: Episode) -> String { directory(of: episode) + "/" + Library.artworkName }

    /// The episode's Podcasting 2.0 JSON chapters file (`podcast:chapters`), fetched once when
    /// its audio is downloaded: what the server sent, read by `EpisodeChapters`.
    public static let chaptersName = ".chapters.json"

    public func chaptersPath(of episode: Episode) -> String { directory(of: episode) + "/" + Library.chaptersName }

    /// Keeps `bytes` as the episode's chapters file, written whole (a reader never sees part of
    /// one) with the mode of the episode's protection, as its audio is. A hidden name: never
    /// taken for a download, not a file `verify` checks, removed with the episode's directory.
    public func cacheChapters(_ bytes: [UInt8], of episode: Episode) throws(StoreError) {
        try prepareDirectory(for: episode)
        try FileSystem.replace(chaptersPath(of: episode), with: bytes, mode: episode.protection.fileMode)
    }

    public func hasCachedChapters(of episode: Episode) -> Bool { FileSystem.isRegularFile(chaptersPath(of: episode)) }

    /// The episode's transcript (`podcast:transcript`), fetched when its audio is downloaded and
    /// kept as read (a JSON `Transcripts.Transcript`), for `podcli transcript` and the player.
    public static let transcriptName = "transcript.json"

    public func transcriptPath(of episode: Episode) -> String { directory(of: episode) + "/" + Library.transcriptName }

    /// Keeps `bytes` as the episode's transcript file, as `cacheChapters` keeps chapters: written
    /// whole, with the mode of the episode's protection, removed with the episode's directory.
    public func cacheTranscript(_ bytes: [UInt8], of episode: Episode) throws(StoreError) {
        try prepareDirectory(for: episode)
        try FileSystem.replace(transcriptPath(of: episode), with: bytes, mode: episode.protection.fileMode)
    }

    public func hasCachedTranscript(of episode: Episode) -> Bool {
        FileSystem.isRegularFile(transcriptPath(of: episode))
    }

    /// Whether `name`, in an episode's directory, is one of podcli's own files rather than a
    /// download: hidden names (the artwork, the chapters, temporary files), `transcript.json`,
    /// and `artwork.jpg`, where podcli 0.1 cached the artwork. A downloaded name is never one of
    /// them (the downloader's `FileName` sees to it).
    public static func isOwnFile(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "artwork.jpg" || name == transcriptName
    }

    /// The partial download to resume in the episode's directory, if any: a regular file (never
    /// a link, which would make podcli write where it points) that is not recorded.
    ///
    /// A complete file that is not recorded was renamed into place by a run that died before its
    /// transaction committed; it becomes partial again, so the resume confirms it with the server
    /// instead of trusting it. A recorded file is never taken for a partial one.
    public func partialFile(of episode: Episode) throws(StoreError) -> String? {
        let directory = directory(of: episode)
        let recorded = Set(try files(of: episode).map { String($0.relativePath.split(separator: "/").last!) })
        let names = FileSystem.entries(directory).filter {
            !Library.isOwnFile($0) && !recorded.contains($0) && FileSystem.isRegularFile(directory + "/" + $0)
        }
        if let partial = names.first(where: { $0.hasSuffix(Library.partialSuffix) }) { return partial }
        guard let orphan = names.first else { return nil }
        let partial = orphan + Library.partialSuffix
        try FileSystem.rename(directory + "/" + orphan, to: directory + "/" + partial)
        return partial
    }

    /// Records the start of a download attempt; returns its id for `finishAttempt`.
    public func beginAttempt(for episode: Episode, url: String) throws(StoreError) -> Int {
        try write { writer throws(StoreError) in
            try writer.run(
                "INSERT INTO download_attempts (episode_id, started_at, url) VALUES (?, ?, ?)",
                [SQLValue(episode.id), SQLValue(writer.now), .text(url)])
            return writer.lastInsertedRowID
        }
    }

    public func finishAttempt(_ id: Int, httpStatus: Int?, bytes: Int, error: String?) throws(StoreError) {
        try write { writer throws(StoreError) in
            try writer.run(
                "UPDATE download_attempts SET finished_at = ?, http_status = ?, bytes = ?, error = ? WHERE id = ?",
                [SQLValue(writer.now), SQLValue(httpStatus), SQLValue(bytes), SQLValue(error), SQLValue(id)])
        }
    }

    /// The download attempts of an episode, oldest first.
    public func attempts(of episode: Episode) throws(StoreError) -> [DownloadAttempt] {
        try database.rows(
            "SELECT \(DownloadAttempt.columns) FROM download_attempts WHERE episode_id = ? ORDER BY id",
            [SQLValue(episode.id)]
        ).map(DownloadAttempt.init)
    }

    /// Moves a complete, synced partial download into place and records it, in one transaction
    /// with the episode becoming `downloaded`: either both happen or neither does.
    ///
    /// The file gets the mode of the episode's protection first; the mode and owner recorded are
    /// the ones read back from disk.
    /// - Throws: `StoreError`; the partial file is then still there, unrecorded.
    public func recordDownload(
        of episode: Episode, partialName: String, finalName: String, size: Int, sha256: String,
        contentType: String?
    ) throws(StoreError) -> EpisodeFile {
        let directory = directory(of: episode)
        let partialPath = directory + "/" + partialName
        let finalPath = directory + "/" + finalName
        let info = try FileSystem.protectRegularFile(partialPath, mode: episode.protection.fileMode)
        let relativePath = "episodes/\(episode.uuid)/\(finalName)"
        do {
            try write { writer throws(StoreError) in
                try writer.run("DELETE FROM files WHERE episode_id = ?", [SQLValue(episode.id)])
                try writer.run(
                    """
                    INSERT INTO files (episode_id, relative_path, size, sha256, mode, owner_uid, protection,
                                       content_type, recorded_at, verified_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        SQLValue(episode.id), .text(relativePath), SQLValue(size), .text(sha256),
                        SQLValue(Int(info.st_mode & 0o7777)), SQLValue(Int(info.st_uid)),
                        .text(episode.protection.rawValue), SQLValue(contentType), SQLValue(writer.now),
                        SQLValue(writer.now),
                    ])
                try writer.run(
                    """
                    UPDATE episodes SET state = 'downloaded', downloaded_at = ?, validator = NULL, removed_at = NULL,
                        last_error = NULL, failures = 0, retry_at = NULL
                    WHERE id = ?
                    """,
                    [SQLValue(writer.now), SQLValue(episode.id)])
                try recordEpisodeAction(.download, of: episode.id, in: writer)
                // Last, so a failure above leaves the file partial; a crash after it is repaired
                // by partialFile(of:).
                try FileSystem.rename(partialPath, to: finalPath)
                try FileSystem.syncDirectory(directory)
            }
        } catch {
            if FileSystem.exists(finalPath) && !FileSystem.exists(partialPath) {
                try? FileSystem.rename(finalPath, to: partialPath)
            }
            throw error
        }
        return try files(of: episode)[0]
    }
}
