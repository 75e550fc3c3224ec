import CSDBus
import Synchronization
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// Watches logind's PrepareForSleep signal on the system bus: `true` when the system is about to
/// sleep, `false` when it has woken up. One owner of an sd-bus connection, used only by the
/// watcher's own thread once started.
public final class SleepWatcher: @unchecked Sendable {
    // @unchecked: after `init`, the connection is touched only by the thread `start` makes.
    private let bus: OpaquePointer
    private let onChange: @Sendable (Bool) -> Void
    private let thread = Mutex<ServiceThread?>(nil)

    static let match =
        "type='signal',path='/org/freedesktop/login1',interface='org.freedesktop.login1.Manager',"
        + "member='PrepareForSleep'"

    /// Connects to the system bus (or to `address`, for tests) and subscribes; nil when there is
    /// no bus to connect to: the watcher is then simply off.
    public init?(address: String? = nil, onChange: @escaping @Sendable (Bool) -> Void) {
        var connection: OpaquePointer?
        if let address {
            guard sd_bus_new(&connection) >= 0, let created = connection else { return nil }
            guard sd_bus_set_address(created, address) >= 0, sd_bus_set_bus_client(created, 1) >= 0,
                sd_bus_start(created) >= 0
            else {
                sd_bus_unref(created)
                return nil
            }
        } else {
            guard sd_bus_open_system(&connection) >= 0 else { return nil }
        }
        guard let connection else { return nil }
        bus = connection
        self.onChange = onChange
        let subscribed = sd_bus_add_match(
            bus, nil, Self.match,
            { message, context, _ in
                var value: Int32 = 0
                guard let message, let context, csdbus_read_bool(message, &value) >= 0 else { return 0 }
                Unmanaged<SleepWatcher>.fromOpaque(context).takeUnretainedValue().onChange(value != 0)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        guard subscribed >= 0 else {
            sd_bus_flush_close_unref(bus)
            return nil
        }
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Dispatches signals on a thread of its own (which keeps the watcher alive) until `stop`.
    public func start() {
        thread.withLock { thread in
            guard thread == nil else { return }
            thread = ServiceThread(name: "podcli.sleep") { [self] stop in run(stop) }
        }
    }

    /// Ends the thread and waits for it.
    public func stop() { thread.withLock { $0 }?.stop() }

    /// sd_bus_wait, but also woken by the stop event.
    private func run(_ stop: StopEvent) {
        while true {
            var processed: Int32
            repeat { processed = sd_bus_process(bus, nil) } while processed > 0
            let events = sd_bus_get_events(bus)
            guard processed >= 0, events >= 0 else { return }
            var descriptors = [pollfd(fd: sd_bus_get_fd(bus), events: Int16(events), revents: 0)]
            var due: UInt64 = 0
            var timeout: Double?
            if sd_bus_get_timeout(bus, &due) >= 0, due != UInt64.max {
                // sd-bus's deadlines are CLOCK_MONOTONIC microseconds.
                var clock = timespec()
                clock_gettime(CLOCK_MONOTONIC, &clock)
                let now = UInt64(clock.tv_sec) * 1_000_000 + UInt64(clock.tv_nsec) / 1000
                timeout = due > now ? Double(due - now) / 1e6 : 0
            }
            guard stop.wait(for: &descriptors, timeout: timeout) else { return }
        }
    }
}
