import AudioFormats
import Downloads
import EpisodeStore
import Playback
import Synchronization
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// An episode played while it downloads (`podcli play URL`). The download runs on a thread of its
/// own, with its own connection to the library, exactly as `fetch` would run it (resumable,
/// verified, recorded when complete); the player reads what is already on disk. `stop` ends the
/// download at once (what arrived stays, to resume) and waits for its thread.
public final class EpisodeStream: Sendable {
    private struct Progress {
        var partialPath: String?
        var done = false
        var failure: (any Error & Sendable)?
    }

    public let episode: Episode
    private let progress = Mutex(Progress())
    /// Signalled as bytes arrive and when the download ends: what the player's reads wait on.
    private let changes = ChangeSignal()
    private let thread: Mutex<ServiceThread?>

    /// Bytes on disk before playing starts, unless the download finishes first: enough for
    /// libmpg123 to find the stream's format past a large ID3 tag, and FFmpeg an MP4's index.
    public static let startBytes = 256 * 1024
    /// Bytes enough to see an MP4's top-level boxes up to its audio.
    public static let headBytes = 16 * 1024

    /// Starts downloading `episode` into the library in `libraryDirectory`. Call it on the main
    /// thread: libcurl is set up here, never on the download's thread (see `CurlLibrary`).
    public init(episode: Episode, libraryDirectory: String, policy: DownloadPolicy) {
        self.episode = episode
        thread = Mutex(nil)
        CurlLibrary.initialize()
        let started = ServiceThread(name: "podcli.stream") { [self] stop in
            defer { changes.signal() }
            do {
                let library = try Library(directory: libraryDirectory)
                var fetcher = EpisodeFetcher(
                    library: library, downloader: Downloader(policy: policy, stop: stop))
                // libcurl tells progress after each piece it wrote.
                fetcher.onEvent = { event in
                    if case .progress = event { self.changes.signal() }
                }
                let file = try fetcher.fetch(
                    episode,
                    onResponse: { path in
                        progress.withLock { $0.partialPath = path }
                        changes.signal()
                    })
                let path = library.path(of: file)
                progress.withLock {
                    $0.partialPath = path
                    $0.done = true
                }
            } catch {
                progress.withLock {
                    $0.failure = error
                    $0.done = true
                }
            }
        }
        thread.withLock { $0 = started }
    }

    /// Ends the download (at once, keeping what arrived) and waits for its thread.
    public func stop() { thread.withLock { $0 }?.stop() }

    /// True once the download has ended, complete or not.
    public var isDone: Bool { progress.withLock { $0.done } }

    /// Why the download failed, if it did.
    public var failure: (any Error & Sendable)? { progress.withLock { $0.failure } }

    /// Waits until enough has arrived to start playing, and opens the file that is arriving; nil
    /// when a command that ends the session comes first (here and in every read that waits, a
    /// wait ends at once on such a command). An MP4 whose index is at its end cannot start
    /// before the end: `note` says it waits.
    /// - Throws: the download's failure, when it fails before that.
    public func openDecoder(endingOn commands: CommandQueue, note: (String) -> Void) throws -> (any AudioDecoder)? {
        commands.signalEveryPost(changes)
        let stop: @Sendable () -> Bool = { commands.isStopPending }
        // The first bytes tell an MP4 whose index comes after its audio: it must arrive whole.
        guard let head = try waitUntil(Self.headBytes, stoppingWhen: stop) else { return nil }
        var wanted: Int? = Self.startBytes
        if !isDone, let bytes = FileBytes(path: head), MP4Layout.indexFollowsAudio(in: bytes) {
            note("The index of #\(episode.id) is at the end of its file: playing starts once it has downloaded")
            wanted = nil
        }
        while true {
            guard let path = try waitUntil(wanted, stoppingWhen: stop) else { return nil }
            // A read that reaches what has arrived waits for more, unless asked to stop: it then
            // ends the stream early and the player meets the command that stopped it.
            let arrival = Arrival(changes: changes, isOver: { self.isDone || stop() })
            do {
                return try AudioDecoders.open(growingFile: path, arrival: arrival)
            } catch {
                // Recorded meanwhile: the partial file was renamed to its final name.
                guard case .cannotOpen = error, access(path, F_OK) != 0 else { throw error }
            }
        }
    }

    /// Waits until `bytes` have arrived (all of them, for nil) and returns the file's path.
    private func waitUntil(_ bytes: Int?, stoppingWhen stop: () -> Bool) throws -> String? {
        var now = Progress()
        var arrived = false
        changes.wait {
            now = progress.withLock { $0 }
            if let path = now.partialPath, now.done || bytes.map({ Self.size(of: path) >= $0 }) == true {
                arrived = true
            }
            return arrived || now.failure != nil || stop()
        }
        if let failure = now.failure { throw failure }
        return arrived ? now.partialPath : nil
    }

    private static func size(of path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
}
