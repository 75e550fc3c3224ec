import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Runs jobs on a fixed number of threads, each with state of its own made on it (a curl handle,
/// a database connection, neither of which may be shared), and at most `perHost` jobs at a time
/// for one host.
///
/// Threads rather than tasks: each job blocks in libcurl and SQLite for its whole length.
enum WorkerPool {
    /// Returns when every job has run.
    /// - Parameters:
    ///   - makeWorker: called once on each thread; returns what runs one job there.
    static func run<Job: Sendable>(
        _ jobs: [Job], threads: Int, perHost: Int? = nil, host: @escaping @Sendable (Job) -> String = { _ in "" },
        makeWorker: @escaping @Sendable () -> (Job) -> Void
    ) {
        guard !jobs.isEmpty else { return }
        let scheduler = Scheduler(jobs: jobs, perHost: perHost ?? jobs.count, host: host)
        let group = DispatchGroup()
        for index in 0..<min(max(threads, 1), jobs.count) {
            // A queue of its own is a thread of its own; a global queue would cap blocking work
            // at the number of cores.
            DispatchQueue(label: "podcli.worker.\(index)").async(group: group) {
                let work = makeWorker()
                while let job = scheduler.next() {
                    work(job)
                    scheduler.finished(job)
                }
            }
        }
        group.wait()
    }
}

/// Hands out jobs in order, skipping those whose host is at its limit until one of its jobs ends.
private final class Scheduler<Job: Sendable>: @unchecked Sendable {
    // @unchecked: every field is touched only with `mutex` held.
    private var pending: [Job]
    private var active: [String: Int] = [:]
    private let perHost: Int
    private let host: @Sendable (Job) -> String
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(jobs: [Job], perHost: Int, host: @escaping @Sendable (Job) -> String) {
        pending = jobs
        self.perHost = max(perHost, 1)
        self.host = host
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// The next job this thread may run, waiting while only busy hosts' jobs are left; nil when
    /// none is left.
    func next() -> Job? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !pending.isEmpty {
            if let index = pending.firstIndex(where: { active[host($0), default: 0] < perHost }) {
                let job = pending.remove(at: index)
                active[host(job), default: 0] += 1
                return job
            }
            pthread_cond_wait(changed, mutex)
        }
        return nil
    }

    func finished(_ job: Job) {
        pthread_mutex_lock(mutex)
        active[host(job), default: 1] -= 1
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}
