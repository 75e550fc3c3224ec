import CCurl

/// libcurl's global set-up (curl_global_init, which sets up OpenSSL): once per process, on the
/// main thread, before any thread that may fetch starts. Set up on another thread, it raced the
/// clean-up OpenSSL registers with atexit: a `play` that exited while its artwork thread was
/// still inside curl_global_init crashed (SIGSEGV in pthread_rwlock_wrlock, about 1 run in 1,000
/// under load). Only a command that fetches calls it: it costs about 1 ms and 2 MB.
public enum CurlLibrary {
    /// Run once, by whichever caller comes first (a Swift static is initialised once, thread-safely).
    private static let result = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Sets libcurl up, unless that was done already. libcurl 7.84 and later make this safe on
    /// any thread (Debian's is built thread-safe), so a `Transfer` made first also calls it; a
    /// command calls it on its main thread first.
    public static func initialize() { _ = result }
}
