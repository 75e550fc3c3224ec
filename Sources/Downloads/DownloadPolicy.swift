#if canImport(Glibc)
    import Glibc
#endif

/// How patient and how polite a download is: retries, timeouts, redirects.
public struct DownloadPolicy: Sendable {
    /// Attempts in all, the first included.
    public var maxAttempts = 5
    /// The first retry waits about this long; each next one twice as long, with jitter.
    public var baseDelay = 0.5
    public var maxDelay = 30.0
    /// A Retry-After longer than this is not waited for.
    public var maxRetryAfter = 120
    public var maxRedirects = 10
    public var connectTimeout = 15
    /// A transfer slower than `lowSpeedLimit` bytes/s for `lowSpeedTime` seconds is aborted
    /// (and retried): a stalled connection must not hang a cron job forever.
    public var lowSpeedLimit = 1024
    public var lowSpeedTime = 60
    public var userAgent: String
    /// Shared by every download of a run that must stay under a rate (`--limit-rate`).
    public var rateLimiter: RateLimiter?
    /// Shared by every transfer of a run: a host that refused a connection or whose name did not
    /// resolve is not tried again in the run (nil: every transfer tries for itself).
    public var unreachableHosts: UnreachableHosts?

    public init(userAgent: String) { self.userAgent = userAgent }

    /// The wait before retry number `retry` (1-based): exponential backoff with "equal jitter",
    /// so many clients failing together do not retry together.
    func delay(beforeRetry retry: Int) -> Double {
        let ceiling = min(maxDelay, baseDelay * Double(1 << min(retry - 1, 16)))
        return ceiling / 2 + Double.random(in: 0...(ceiling / 2))
    }

    /// Waits out a delay on this thread, through any signal that interrupts the sleep.
    static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
