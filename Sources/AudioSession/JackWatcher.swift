import CALSA
import Synchronization
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// Watches the jack switches of an ALSA control device (a card's "Headphone Jack") and reports
/// when one turns off (unplugged) or on (plugged in). One owner of a `snd_ctl_t`, used only by
/// the watcher's own thread once started.
///
/// Only a card has jacks to watch. On PulseAudio or PipeWire the device is the sound server,
/// which handles jacks and moves streams itself; a moved stream raises no error in an ALSA
/// client, so podcli plays on wherever the server sends it.
public final class JackWatcher: @unchecked Sendable {
    // @unchecked: after `init`, the control handle is touched only by the thread `start` makes.
    private let control: OpaquePointer
    private let isWatched: @Sendable (String) -> Bool
    private let onChange: @Sendable (_ element: String, _ plugged: Bool) -> Void
    /// The last known state of each watched element, by name.
    private var plugged: [String: Bool] = [:]
    private let thread = Mutex<ServiceThread?>(nil)

    /// Whether an element is a headphone jack: HDA cards call them "Headphone Jack", "Front
    /// Headphone Jack", "Headphone Mic Jack"...
    public static func isHeadphoneJack(_ name: String) -> Bool {
        name.hasSuffix(" Jack") && name.lowercased().contains("headphone")
    }

    /// Opens `device` (e.g. `hw:0`) and reads the watched switches' state; nil when it cannot be
    /// opened or has none of them.
    /// - Parameter configuration: ALSA configuration text defining `device`, instead of the
    ///   system's (for tests: a control device of a private sound server).
    public init?(
        device: String, configuration: String? = nil,
        watching isWatched: @escaping @Sendable (String) -> Bool = JackWatcher.isHeadphoneJack,
        onChange: @escaping @Sendable (_ element: String, _ plugged: Bool) -> Void
    ) {
        calsa_silence_errors()
        guard let handle = Self.open(device, configuration: configuration) else { return nil }
        control = handle
        self.isWatched = isWatched
        self.onChange = onChange
        for name in elementNames() where isWatched(name) {
            plugged[name] = read(name)
        }
        guard !plugged.isEmpty, snd_ctl_subscribe_events(control, 1) == 0 else { return nil }
    }

    deinit { snd_ctl_close(control) }

    private static func open(_ device: String, configuration: String?) -> OpaquePointer? {
        var handle: OpaquePointer?
        guard let configuration else {
            return snd_ctl_open(&handle, device, SND_CTL_NONBLOCK) == 0 ? handle : nil
        }
        var config: OpaquePointer?
        var input: OpaquePointer?
        guard snd_config_top(&config) == 0 else { return nil }
        defer { snd_config_delete(config) }
        let loaded = configuration.withCString { text in
            snd_input_buffer_open(&input, text, strlen(text)) == 0 && snd_config_load(config, input) == 0
        }
        if let input { snd_input_close(input) }
        guard loaded, snd_ctl_open_lconf(&handle, device, SND_CTL_NONBLOCK, config) == 0 else { return nil }
        return handle
    }

    /// Reports changes on a thread of its own (which keeps the watcher alive) until `stop`.
    public func start() {
        thread.withLock { thread in
            guard thread == nil else { return }
            thread = ServiceThread(name: "podcli.jacks") { [self] stop in run(stop) }
        }
    }

    /// Ends the thread and waits for it.
    public func stop() { thread.withLock { $0 }?.stop() }

    /// Waits for control events and reports the watched switches that changed.
    private func run(_ stop: StopEvent) {
        var descriptors = [pollfd](
            repeating: pollfd(), count: Int(max(1, snd_ctl_poll_descriptors_count(control))))
        let count = snd_ctl_poll_descriptors(control, &descriptors, UInt32(descriptors.count))
        guard count > 0 else { return }
        var event: OpaquePointer?
        guard snd_ctl_event_malloc(&event) == 0 else { return }
        defer { snd_ctl_event_free(event) }
        descriptors = Array(descriptors.prefix(Int(count)))
        while stop.wait(for: &descriptors, timeout: nil) {
            while snd_ctl_read(control, event) > 0 {
                guard snd_ctl_event_get_type(event) == SND_CTL_EVENT_ELEM,
                    snd_ctl_event_elem_get_mask(event) & UInt32(SND_CTL_EVENT_MASK_VALUE) != 0,
                    let name = snd_ctl_event_elem_get_name(event).map({ String(cString: $0) }), isWatched(name),
                    let now = read(name), now != plugged[name]
                else { continue }
                plugged[name] = now
                onChange(name, now)
            }
        }
    }

    private func elementNames() -> [String] {
        var list: OpaquePointer?
        guard snd_ctl_elem_list_malloc(&list) == 0 else { return [] }
        defer { snd_ctl_elem_list_free(list) }
        guard snd_ctl_elem_list(control, list) == 0 else { return [] }
        let count = snd_ctl_elem_list_get_count(list)
        guard snd_ctl_elem_list_alloc_space(list, count) == 0 else { return [] }
        defer { snd_ctl_elem_list_free_space(list) }
        guard snd_ctl_elem_list(control, list) == 0 else { return [] }
        return (0..<snd_ctl_elem_list_get_used(list)).compactMap { index in
            snd_ctl_elem_list_get_name(list, index).map { String(cString: $0) }
        }
    }

    /// The switch's value (its first channel), or nil when it cannot be read.
    private func read(_ name: String) -> Bool? {
        var id: OpaquePointer?
        var value: OpaquePointer?
        defer {
            if id != nil { snd_ctl_elem_id_free(id) }
            if value != nil { snd_ctl_elem_value_free(value) }
        }
        guard snd_ctl_elem_id_malloc(&id) == 0, snd_ctl_elem_value_malloc(&value) == 0 else { return nil }
        // Mixer controls (a sound server's) and card controls (a card's jacks) live apart.
        for interface in [SND_CTL_ELEM_IFACE_CARD, SND_CTL_ELEM_IFACE_MIXER] {
            snd_ctl_elem_id_clear(id)
            snd_ctl_elem_id_set_interface(id, interface)
            snd_ctl_elem_id_set_name(id, name)
            snd_ctl_elem_value_set_id(value, id)
            if snd_ctl_elem_read(control, value) == 0 { return snd_ctl_elem_value_get_boolean(value, 0) != 0 }
        }
        return nil
    }
}
