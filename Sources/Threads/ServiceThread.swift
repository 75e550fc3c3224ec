import CSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A thread of its own (a pthread, joinable) running one body, which watches its `StopEvent`.
/// `stop()` signals the event and joins: when it returns, the body has returned. A command stops
/// every thread it started before it returns, so nothing is still running (inside libcurl,
/// OpenSSL, sd-bus) while `exit` runs the libraries' clean-up.
public final class ServiceThread: Sendable {
    public let stopEvent: StopEvent
    /// The thread until someone joins it.
    private let thread = Mutex<pthread_t?>(nil)
    private let body: Body

    /// Starts `body` on a new thread named `name` (at most 15 bytes show in ps and gdb).
    /// - Parameter stopEvent: shared when several threads stop together; a new one otherwise.
    public init(name: String, stopEvent: StopEvent = StopEvent(), _ body: @escaping @Sendable (StopEvent) -> Void) {
        self.stopEvent = stopEvent
        self.body = Body(name: name) { body(stopEvent) }
        let context = Unmanaged.passRetained(self.body).toOpaque()
        var created = pthread_t()
        let result = pthread_create(
            &created, nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard result == 0 else {
            // Only a process out of threads or memory gets here.
            fatalError("cannot start the thread \(name): \(String(cString: strerror(result)))")
        }
        thread.withLock { $0 = created }
    }

    /// A body still running is told to stop (through the event, which others may share) and
    /// waited for; one that has returned is only joined.
    deinit {
        if !hasReturned { stopEvent.signal() }
        join()
    }

    /// Whether the body has returned (joining then does not wait).
    public var hasReturned: Bool { body.returned.load(ordering: .acquiring) }

    /// Signals the stop event and waits for the body to return. Idempotent; called from the
    /// thread itself it only signals.
    public func stop() {
        stopEvent.signal()
        join()
    }

    /// Waits for the body to return without asking it to stop (work that ends by itself). Only
    /// the first caller waits; on the thread itself, it lets the thread go (detached) instead.
    public func join() {
        guard
            let joinable = thread.withLock({ thread in
                defer { thread = nil }
                return thread
            })
        else { return }
        if pthread_equal(joinable, pthread_self()) != 0 {
            pthread_detach(joinable)
        } else {
            pthread_join(joinable, nil)
        }
    }

    /// The names of this process's threads that are service threads (named `prefix`...), from the
    /// kernel's list (/proc/self/task): what a command left running.
    public static func running(named prefix: String) -> [String] {
        guard let directory = opendir("/proc/self/task") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let task = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard task.first?.isNumber == true else { continue }
            let descriptor = open("/proc/self/task/\(task)/comm", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = read(descriptor, &bytes, bytes.count)
            close(descriptor)
            let name = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
                .trimmingSuffix("\n")
            if name.hasPrefix(prefix) { names.append(name) }
        }
        return names
    }

    /// The work, let go of once it has run: what it holds (often its owner) is not kept alive
    /// by a thread that has ended.
    private final class Body: Sendable {
        let name: String
        let work: Mutex<(@Sendable () -> Void)?>
        let returned = Atomic(false)

        init(name: String, _ work: @escaping @Sendable () -> Void) {
            self.name = name
            self.work = Mutex(work)
        }

        func run() {
            csystem_name_thread(name)
            work.withLock { work in
                defer { work = nil }
                return work
            }?()
            returned.store(true, ordering: .releasing)
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
