import Downloads
import EpisodeStore

/// Downloads an episode's audio into its directory and records it: the one path from a URL to
/// a recorded file, used by `fetch` and by `verify --repair`.
public struct EpisodeFetcher {
    /// What a fetch tells as it goes, for a progress bar.
    public enum Event {
        /// The bytes so far, and the total when known.
        case progress(received: Int, total: Int?)
        /// The server failed; the next attempt comes after a wait ("...; retrying in 2.0 s").
        case retrying(String)
        /// The transfer is over, whichever way.
        case ended
        /// Something beside the audio failed (its transcript): worth a line, never a failed download.
        case warning(String)
    }

    public let library: Library
    public let downloader: Downloader
    public var limits = DownloadLimits()
    /// Told what happens, on the fetching thread.
    public var onEvent: ((Event) -> Void)?

    public init(library: Library, downloader: Downloader, limits: DownloadLimits = DownloadLimits()) {
        self.library = library
        self.downloader = downloader
        self.limits = limits
    }

    /// Downloads (or resumes) `episode` and records its file.
    /// - Parameters:
    ///   - onStart: told when the download begins, the episode's lock taken (not when another
    ///     podcli holds it, or has finished it meanwhile).
    ///   - onResponse: told the path of the partial file as the server starts sending into it
    ///     (so a player can stream it).
    /// - Throws: `DownloadError` or `StoreError`; the episode is then marked failed (unless the
    ///   disk was at fault, or the download was stopped: no reason to leave it alone for a while), and a
    ///   resumable partial file stays for the next run.
    public func fetch(
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
        var recorder = AttemptRecorder(library: library, episode: episode)
        do {
            let result = try downloader.download(request) { event in
                switch event {
                case .progress(let received, let total):
                    onEvent?(.progress(received: received, total: total))
                case .waiting(let seconds, let reason):
                    onEvent?(.retrying("\(reason); retrying in \(Formatting.oneDecimal(seconds)) s"))
                case .responseStarted(let partialName, _):
                    recorder.take(event)
                    onResponse(library.directory(of: episode) + "/" + partialName)
                default:
                    recorder.take(event)
                }
            }
            onEvent?(.ended)
            try recorder.check()
            let file = try library.recordDownload(
                of: episode, partialName: result.partialName, finalName: result.fileName, size: result.size,
                sha256: result.sha256, contentType: result.contentType)
            cacheChapters(of: episode)
            cacheTranscript(of: episode)
            return file
        } catch {
            onEvent?(.ended)
            if case DownloadError.stopped = error {
                // Stopped by whoever asked (a player that quit): nothing downloads it now, so it
                // is not left `downloading`; its partial file stays for the next fetch or play.
                try? library.recordInterruption("\(error)", of: episode, cutShort: false)
            } else if error.isOutOfSpace || error.unreachableHost != nil {
                // The disk's or the network's failure, not the episode's: no backoff.
                try? library.recordInterruption("\(error)", of: episode)
            } else {
                try? library.recordFailure("\(error)", of: episode)
            }
            throw error
        }
    }
}

extension EpisodeFetcher {
    /// Fetches the episode's JSON chapters file (`podcast:chapters`) once, into its directory,
    /// with the downloader's handle: what the server sent is kept, chapters or not (`show` says
    /// which). A failure costs the chapters from that source, never the download.
    private func cacheChapters(of episode: Episode) {
        guard let url = episode.chaptersURL, !library.hasCachedChapters(of: episode),
            let bytes = try? downloader.fetchChapters(url)
        else { return }
        try? library.cacheChapters(bytes, of: episode)
    }

    /// Fetches a downloaded episode's transcript again when its feed changed its offers since the
    /// kept one was fetched (`sync`, and `download` of an episode already downloaded), under the
    /// episode's lock; a failure is a warning.
    /// - Throws: `StoreError` (`.busy` while another podcli downloads the episode).
    public func refreshTranscript(of episode: Episode) throws(StoreError) {
        guard try library.transcriptSource(of: episode.id)?.offersChanged == true else { return }
        let lock = try library.lock(episode)
        withExtendedLifetime(lock) { cacheTranscript(of: episode) }
    }

    /// Fetches, keeps and indexes the episode's transcript, when its feed offers one podcli reads
    /// and the one kept did not come from it. A failure is a warning: it costs the transcript,
    /// never the download.
    private func cacheTranscript(of episode: Episode) {
        do {
            try EpisodeTranscript.update(for: episode, in: library, fetcher: downloader)
        } catch {
            onEvent?(.warning("#\(episode.id) \(episode.title): no transcript kept: \(error)"))
        }
    }
}

/// Writes each download attempt into the store as it happens, keeping the first store error
/// (the download callbacks cannot throw) to be raised after the transfer.
private struct AttemptRecorder {
    public let library: Library
    public let episode: Episode
    private var attemptID: Int?
    private var firstError: StoreError?

    public init(library: Library, episode: Episode) {
        self.library = library
        self.episode = episode
    }

    public mutating func take(_ event: DownloadEvent) {
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

    public func check() throws(StoreError) {
        if let firstError { throw firstError }
    }
}
