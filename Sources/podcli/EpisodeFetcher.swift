import Downloads
import EpisodeStore

/// Downloads an episode's audio into its directory and records it: the one path from a URL to
/// a recorded file, used by `fetch` and by `verify --repair`.
struct EpisodeFetcher {
    let library: Library
    let downloader: Downloader
    let output: Output
    var limits = DownloadLimits()
    /// Told the bytes so far and the total (when known) instead of drawing a progress bar.
    var onProgress: ((_ received: Int, _ total: Int?) -> Void)?

    /// Downloads (or resumes) `episode` and records its file.
    /// - Parameters:
    ///   - onStart: told when the download begins, the episode's lock taken (not when another
    ///     podcli holds it, or has finished it meanwhile).
    ///   - onResponse: told the path of the partial file as the server starts sending into it
    ///     (so a player can stream it).
    /// - Throws: `DownloadError` or `StoreError`; the episode is then marked failed (unless the
    ///   disk was at fault, or the download was stopped: no reason to leave it alone for a while), and a
    ///   resumable partial file stays for the next run.
    func fetch(
        _ episode: Episode, onStart: () -> Void = {}, onResponse: (String) -> Void = { _ in }
    ) throws -> EpisodeFile {
        let lock = try library.lock(episode)
        defer {
            // What a download that kept nothing leaves: no empty directory (removed under the
            // lock, so no other podcli is writing in it).
            library.removeDirectoryIfEmpty(of: episode)
            withExtendedLifetime(lock) {}
        }
        // Another podcli may have downloaded it while this one waited for the lock: one
        // download, not two. (`verify --repair` asks again for what is recorded, on purpose.)
        if episode.state != .downloaded, try library.episode(id: episode.id)?.state == .downloaded,
            let file = try library.files(of: episode).first
        {
            return file
        }
        onStart()
        try library.setState(.downloading, of: episode)
        let request = DownloadRequest(
            url: episode.sourceURL, directory: library.directory(of: episode),
            partialName: try library.partialFile(of: episode), validator: episode.validator,
            fileMode: episode.protection.fileMode, limits: limits)
        let progress = ProgressBar(output: onProgress == nil ? output : Output.silent, label: "#\(episode.id)")
        var recorder = AttemptRecorder(library: library, episode: episode)
        do {
            let result = try downloader.download(request) { event in
                switch event {
                case .progress(let received, let total):
                    progress.update(received: received, total: total)
                    onProgress?(received, total)
                case .waiting(let seconds, let reason):
                    progress.finish()
                    output.note("\(reason); retrying in \(Formatting.oneDecimal(seconds)) s")
                case .responseStarted(let partialName, _):
                    recorder.take(event)
                    onResponse(library.directory(of: episode) + "/" + partialName)
                default:
                    recorder.take(event)
                }
            }
            progress.finish()
            try recorder.check()
            return try library.recordDownload(
                of: episode, partialName: result.partialName, finalName: result.fileName, size: result.size,
                sha256: result.sha256, contentType: result.contentType)
        } catch {
            progress.finish()
            if case DownloadError.stopped = error {
                // Stopped by whoever asked (a player that quit): nothing downloads it now, so it
                // is not left `downloading`; its partial file stays for the next fetch or play.
                try? library.recordInterruption("\(error)", of: episode, cutShort: false)
            } else if error.isOutOfSpace {
                try? library.recordInterruption("\(error)", of: episode)
            } else {
                try? library.recordFailure("\(error)", of: episode)
            }
            throw error
        }
    }
}

/// Writes each download attempt into the store as it happens, keeping the first store error
/// (the download callbacks cannot throw) to be raised after the transfer.
private struct AttemptRecorder {
    let library: Library
    let episode: Episode
    private var attemptID: Int?
    private var firstError: StoreError?

    init(library: Library, episode: Episode) {
        self.library = library
        self.episode = episode
    }

    mutating func take(_ event: DownloadEvent) {
        do throws(StoreError) {
            switch event {
            case .attemptStarted(let url, _):
                attemptID = try library.beginAttempt(for: episode, url: url)
            case .responseStarted(_, let validator):
                try library.setValidator(validator, of: episode)
            case .attemptFinished(let status, let bytes, let error):
                if let attemptID {
                    try library.finishAttempt(attemptID, httpStatus: status, bytes: bytes, error: error)
                }
            case .progress, .waiting:
                break
            }
        } catch {
            firstError = firstError ?? error
        }
    }

    func check() throws(StoreError) {
        if let firstError { throw firstError }
    }
}
