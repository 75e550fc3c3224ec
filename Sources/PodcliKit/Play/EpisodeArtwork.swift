import Downloads
import EpisodeStore
import FoundationEssentials
import Playback
import Synchronization
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// The artwork of the episodes a `play` session plays, as a lock screen shows it: found on a
/// thread of its own (so a slow server or a broken image never delays the sound) and cached in
/// each episode's directory as a square JPEG of at most 600 px.
///
/// Where it comes from, first found first: the file already cached; the picture embedded in the
/// audio (ID3v2 APIC, the front cover first); the episode's image (itunes:image); the podcast's.
/// Whatever fails is passed over in silence: no artwork is not worth a message. `stop` ends the
/// search under way (a fetch at once) and waits for it: the session calls it before it returns.
public final class EpisodeArtwork: Sendable {
    /// What to look at for one episode, gathered on the player's thread (the library is not
    /// shared with other threads).
    public struct Sources: Sendable {
        var cachePath: String
        var protection: Protection
        /// The file being played, for its embedded picture.
        var audioPath: String
        /// The episode's image, then the podcast's.
        var imageURLs: [String]
    }

    private struct State {
        var requested: Set<Int> = []
        var paths: [Int: String] = [:]
        /// One per episode asked for; those that have ended are joined as new ones start.
        var threads: [ServiceThread] = []
    }

    private let state = Mutex(State())
    private let policy: DownloadPolicy
    private let helpers: any HelperProcesses
    private let stopEvent = StopEvent()
    /// Held by the search under way: one episode at a time, in the order they were asked for.
    private let oneAtATime = Mutex(())

    public init(policy: DownloadPolicy, helpers: any HelperProcesses) {
        self.policy = policy
        self.helpers = helpers
    }

    /// The artwork file of episode `id`, once it has been found.
    public func path(of id: Int) -> String? { state.withLock { $0.paths[id] } }

    /// Starts finding the artwork of episode `id` (once a session); `found` is called on the
    /// artwork's thread when there is some. Call it on the main thread: an image to fetch sets
    /// libcurl up here first, never on the artwork's thread (see `CurlLibrary`).
    public func find(for id: Int, in sources: Sources, found: @escaping @Sendable () -> Void) {
        guard !stopEvent.isSignalled, state.withLock({ $0.requested.insert(id).inserted }) else { return }
        if !sources.imageURLs.isEmpty { CurlLibrary.initialize() }
        let policy = policy
        let helpers = helpers
        let thread = ServiceThread(name: "podcli.artwork", stopEvent: stopEvent) { [self] stop in
            oneAtATime.withLock { _ in
                guard !stop.isSignalled, let path = Self.make(sources, policy: policy, helpers: helpers, stop: stop)
                else { return }
                state.withLock { $0.paths[id] = path }
                found()
            }
        }
        let ended = state.withLock { state in
            let ended = state.threads.filter(\.hasReturned)
            state.threads.removeAll(where: \.hasReturned)
            state.threads.append(thread)
            return ended
        }
        for thread in ended { thread.join() }
    }

    /// Ends every search (a fetch under way at once; a render goes on in its own process and
    /// writes its file) and waits for their threads.
    public func stop() {
        stopEvent.signal()
        for thread in state.withLock({ $0.threads }) { thread.join() }
    }

    /// The cached file, made first if it is not there yet; nil when there is no usable image, or
    /// when stopped first.
    static func make(
        _ sources: Sources, policy: DownloadPolicy, helpers: any HelperProcesses, stop: StopEvent
    ) -> String? {
        let path = sources.cachePath
        var info = stat()
        if stat(path, &info) == 0 && info.st_size > 0 { return path }
        let mode = sources.protection.fileMode
        if let embedded = EmbeddedPicture.read(from: sources.audioPath),
            render(embedded, to: path, mode: mode, helpers: helpers, stop: stop)
        {
            return path
        }
        // Only with somewhere to fetch from: a curl handle (and OpenSSL's set-up) costs megabytes.
        guard !sources.imageURLs.isEmpty, !stop.isSignalled else { return nil }
        let fetcher = ImageFetcher(policy: policy, stop: stop)
        for url in sources.imageURLs where !stop.isSignalled {
            if let bytes = try? fetcher.fetch(url), render(bytes, to: path, mode: mode, helpers: helpers, stop: stop) {
                return path
            }
        }
        return nil
    }

    /// Makes `image` into the artwork file at `path` in a podcli of its own (`helpers.renderArtwork`):
    /// libgd and the eighty libraries it loads (about 10 MB) stay out of the player, and an image
    /// from the network that crashes its decoder costs the artwork, not the playback.
    ///
    /// The image reaches it as its stdin, a file in memory with no name: nothing is left on disk
    /// however either process ends. Stopped while it renders, the player stops waiting; the child
    /// finishes on its own (its file is written atomically) and is reaped when the player exits.
    private static func render(
        _ image: [UInt8], to path: String, mode: mode_t, helpers: any HelperProcesses, stop: StopEvent
    ) -> Bool {
        guard let source = Descriptor.memoryFile(named: "podcli-artwork-source", holding: image) else { return false }
        defer { close(source) }
        return helpers.renderArtwork(from: source, to: path, mode: mode, stop: stop)
    }

    /// `path` as the file URL MPRIS wants for `mpris:artUrl`.
    public static func fileURL(_ path: String) -> String { URL(filePath: path).absoluteString }
}
