#if canImport(Glibc)
    import Glibc
#endif

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): what a parse costs,
/// whatever else the machine runs meanwhile.
enum ThreadCPUTime {
    static func now() -> Duration {
        var time = timespec()
        // Cannot fail for the calling thread's own clock (EINVAL only for a clock that is not one).
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
