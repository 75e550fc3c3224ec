import Artwork
import Dispatch
import Downloads
import EpisodeStore
import FoundationEssentials
import Playback
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The artwork of the episodes a `play` session plays, as a lock screen shows it: found on a
/// thread of its own (so a slow server or a broken image never delays the sound) and cached in
/// each episode's directory as a square JPEG of at most 600 px.
///
/// Where it comes from, first found first: the file already cached; the picture embedded in the
/// audio (ID3v2 APIC, the front cover first); the episode's image (itunes:image); the podcast's.
/// Whatever fails is passed over in silence: no artwork is not worth a message.
final class EpisodeArtwork: Sendable {
    /// What to look at for one episode, gathered on the player's thread (the library is not
    /// shared with other threads).
    struct Sources: Sendable {
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
    }

    private let state = Mutex(State())
    private let policy: DownloadPolicy
    // A queue of its own gets a thread of its own: a slow fetch must not hold a thread the global
    // queues (and so the signal handlers) share. Serial: one episode at a time.
    private let queue = DispatchQueue(label: "podcli.artwork")

    init(policy: DownloadPolicy) { self.policy = policy }

    /// The artwork file of episode `id`, once it has been found.
    func path(of id: Int) -> String? { state.withLock { $0.paths[id] } }

    /// Starts finding the artwork of episode `id` (once a session); `found` is called on the
    /// artwork's thread when there is some.
    func find(for id: Int, in sources: Sources, found: @escaping @Sendable () -> Void) {
        guard state.withLock({ $0.requested.insert(id).inserted }) else { return }
        queue.async { [self] in
            guard let path = Self.make(sources, policy: policy) else { return }
            state.withLock { $0.paths[id] = path }
            found()
        }
    }

    /// The cached file, made first if it is not there yet; nil when there is no usable image.
    static func make(_ sources: Sources, policy: DownloadPolicy) -> String? {
        let path = sources.cachePath
        var info = stat()
        if stat(path, &info) == 0 && info.st_size > 0 { return path }
        let mode = sources.protection.fileMode
        if let embedded = EmbeddedPicture.read(from: sources.audioPath), render(embedded, to: path, mode: mode) {
            return path
        }
        // Only with somewhere to fetch from: a curl handle (and OpenSSL's set-up) costs megabytes.
        guard !sources.imageURLs.isEmpty else { return nil }
        let fetcher = ImageFetcher(policy: policy)
        for url in sources.imageURLs {
            if let bytes = try? fetcher.fetch(url), render(bytes, to: path, mode: mode) { return path }
        }
        return nil
    }

    /// Makes `image` into the artwork file at `path` in a podcli of its own (`render-artwork`):
    /// libgd and the eighty libraries it loads (about 10 MB) stay out of the player, and an image
    /// from the network that crashes its decoder costs the artwork, not the playback.
    private static func render(_ image: [UInt8], to path: String, mode: mode_t) -> Bool {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        // Hidden: the episode's directory takes any other name for a download.
        var template = Array((directory + "/.artwork-source-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return false }
        let source = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(source) }
        let written = image.withUnsafeBytes { Output.writeAll($0, to: descriptor) }
        close(descriptor)
        guard written else { return false }
        return DetachedProcess.run([RenderArtwork.spec.name, source, path, "--mode", String(mode, radix: 8)]) == 0
    }

    /// `path` as the file URL MPRIS wants for `mpris:artUrl`.
    static func fileURL(_ path: String) -> String { URL(filePath: path).absoluteString }
}
