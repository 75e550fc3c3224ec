import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where a download must stop even though the server would go on: policy for unattended runs.
public struct DownloadLimits: Sendable {
    /// More bytes than this is refused and the partial file deleted: an enclosure larger than
    /// policy allows, or a live stream that never ends.
    public var maxBytes: Int?
    /// A transfer still running after this many seconds (a live stream) is refused likewise.
    public var maxSeconds: Double?
    /// The download stops, keeping its partial file for later, rather than leave less free space
    /// than this on the file system it writes to.
    public var minFreeBytes: Int?

    public init(maxBytes: Int? = nil, maxSeconds: Double? = nil, minFreeBytes: Int? = nil) {
        self.maxBytes = maxBytes
        self.maxSeconds = maxSeconds
        self.minFreeBytes = minFreeBytes
    }

    /// The free space on the file system holding `path`, for unprivileged writers; nil when it
    /// cannot be read.
    public static func freeBytes(at path: String) -> Int? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }
}

/// One ceiling on the bytes per second of every transfer that shares it (`--limit-rate`): each
/// receiver waits, in its body callback, until its bytes are due, and TCP slows the sender.
public final class RateLimiter: Sendable {
    private let bytesPerSecond: Double
    /// When the bytes taken so far are all due (monotonic seconds).
    private let due = Mutex(0.0)
    /// Credit a quiet moment may build up, so a rate is kept on average, not per packet.
    private static let burstSeconds = 0.25

    public init(bytesPerSecond: Int) { self.bytesPerSecond = Double(max(bytesPerSecond, 1)) }

    /// Waits until `count` more bytes fit the rate.
    func take(_ count: Int) {
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        let wait = due.withLock { due in
            due = max(due, now - Self.burstSeconds) + Double(count) / bytesPerSecond
            return due - now
        }
        if wait > 0 { DownloadPolicy.sleep(seconds: wait) }
    }
}

/// A request's limits checked as its file grows: the size and the clock at every piece, the free
/// space every few MiB (a `statvfs` per piece would cost more than the piece).
final class Guardrail {
    private let limits: DownloadLimits
    private let url: String
    private let directory: String
    private let started = DispatchTime.now().uptimeNanoseconds
    private var nextSlowCheck = 0
    private static let slowCheckStep = 4 * 1024 * 1024

    init(limits: DownloadLimits, url: String, directory: String) {
        self.limits = limits
        self.url = url
        self.directory = directory
    }

    /// The limit reached when the file would be `size` bytes; `announced` for a length the server
    /// declared (only the size limit applies to it), `force` to check everything now.
    func check(size: Int, announced: Bool = false, force: Bool = false) -> DownloadError? {
        if let maxBytes = limits.maxBytes, size > maxBytes { return .tooLarge(url: url, limit: maxBytes) }
        guard !announced else { return nil }
        if let maxSeconds = limits.maxSeconds,
            Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 > maxSeconds
        {
            return .tooLong(url: url, seconds: Int(maxSeconds))
        }
        guard force || size >= nextSlowCheck else { return nil }
        nextSlowCheck = size + Self.slowCheckStep
        // A floor of 0 asks for no margin: a full disk then fails the write itself (ENOSPC).
        if let floor = limits.minFreeBytes, floor > 0, let free = DownloadLimits.freeBytes(at: directory),
            free - Self.slowCheckStep < floor
        {
            return .lowDiskSpace(path: directory, floor: floor, free: free)
        }
        return nil
    }
}
