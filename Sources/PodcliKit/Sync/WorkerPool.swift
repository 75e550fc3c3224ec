import Dispatch
import Threads

/// Runs jobs on a fixed number of threads, each with state of its own made on it (a curl handle,
/// a database connection, neither of which may be shared), and at most `perHost` jobs at a time
/// for one host.
///
/// Threads rather than tasks: each job blocks in libcurl and SQLite for its whole length.
public enum WorkerPool {
    /// Returns when every job has run.
    /// - Parameters:
    ///   - makeWorker: called once on each thread; returns what runs one job there.
    public static func run<Job: Sendable>(
        _ jobs: [Job], threads: Int, perHost: Int? = nil, host: @escaping @Sendable (Job) -> String = { _ in "" },
        makeWorker: @escaping @Sendable () -> (Job) -> Void
    ) {
        // Each job's host is worked out once: `next` looks at every job left each time.
        guard !jobs.isEmpty else { return }
        let scheduler = Scheduler(jobs: jobs.map { ($0, host($0)) }, perHost: perHost ?? jobs.count)
        let group = DispatchGroup()
        for index in 0..<min(max(threads, 1), jobs.count) {
            // A queue of its own is a thread of its own; a global queue would cap blocking work
            // at the number of cores.
            DispatchQueue(label: "podcli.worker.\(index)").async(group: group) {
                let work = makeWorker()
                while let (job, host) = scheduler.next() {
                    work(job)
                    scheduler.finished(host)
                }
            }
        }
        group.wait()
    }
}

/// Hands out jobs in order, skipping those whose host is at its limit until one of its jobs ends.
private final class Scheduler<Job: Sendable>: @unchecked Sendable {
    // @unchecked: every field is touched only with `condition`'s mutex held.
    private let jobs: [(job: Job, host: String)]
    /// Indices into `jobs` of those not handed out yet, in order.
    private var pending: [Int]
    private var active: [String: Int] = [:]
    private let perHost: Int
    private let condition = Condition()

    public init(jobs: [(Job, String)], perHost: Int) {
        self.jobs = jobs
        pending = Array(jobs.indices)
        self.perHost = max(perHost, 1)
    }

    /// The next job this thread may run, waiting while only busy hosts' jobs are left; nil when
    /// none is left.
    public func next() -> (Job, host: String)? {
        condition.withLock {
            while !pending.isEmpty {
                if let position = pending.firstIndex(where: { active[jobs[$0].host, default: 0] < perHost }) {
                    let (job, host) = jobs[pending.remove(at: position)]
                    active[host, default: 0] += 1
                    // Those waiting for a job would wait for ever: there is none left for them.
                    if pending.isEmpty { condition.wakeAll() }
                    return (job, host)
                }
                condition.waitLocked()
            }
            return nil
        }
    }

    /// A job for `host` has ended.
    public func finished(_ host: String) {
        condition.withLock {
            active[host, default: 1] -= 1
            // One place came free: one waiting thread can take it (waking all of them to find
            // the one that can would cost a context switch each, per job).
            condition.wakeOne()
        }
    }
}
