import CNotify

#if canImport(Glibc)
    import Glibc
#endif

/// A client of the desktop's notification server (org.freedesktop.Notifications) on the session
/// bus: one owner of the C client and its sd-bus connection, used on one thread.
///
/// The specification: https://specifications.freedesktop.org/notification-spec/latest/
public final class NotificationClient {
    /// What the server says it can do.
    public struct Capabilities: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// It shows actions (buttons) and reports ActionInvoked.
        public static let actions = Capabilities(rawValue: Int32(CNOTIFY_ACTIONS))
        /// It reads the body as a small markup language (`<b>`, `&amp;`...).
        public static let bodyMarkup = Capabilities(rawValue: Int32(CNOTIFY_BODY_MARKUP))
    }

    /// What became of a notification.
    public enum Response: Equatable, Sendable {
        /// The user chose the action with this key.
        case action(String)
        /// It was closed (expired, dismissed) with no action.
        case closed
        /// Nothing within the time waited.
        case timedOut
    }

    private let client: OpaquePointer

    /// Connects to the session bus (or `address`, for tests) and listens for the server's answers.
    /// Each call to the server gives up after `callTimeout` (sd-bus's default is 25 s).
    /// - Throws: `NotificationError.noBus` when there is no session bus.
    public init(address: String? = nil, callTimeout: Duration = .seconds(5)) throws(NotificationError) {
        var client: OpaquePointer?
        let code = cnotify_open(&client, address, UInt64(callTimeout.components.seconds) * 1_000_000)
        guard code >= 0, let client else { throw .noBus(code: code) }
        self.client = client
    }

    deinit { cnotify_free(client) }

    /// GetCapabilities. A bus with no notification server fails here (`ServiceUnknown`); a
    /// server that D-Bus can start is started.
    /// - Throws: `NotificationError.callFailed`.
    public func capabilities() throws(NotificationError) -> Capabilities {
        let bits = cnotify_capabilities(client)
        guard bits >= 0 else { throw failure("GetCapabilities", bits) }
        return Capabilities(rawValue: bits)
    }

    /// Notify: shows `notification` and returns the server's id for it.
    /// - Throws: `NotificationError.callFailed`.
    public func send(_ notification: DesktopNotification) throws(NotificationError) -> UInt32 {
        let actions = notification.actions.flatMap { [$0.key, $0.label] }
        var id: UInt32 = 0
        let code = withCStrings(actions) { actions in
            cnotify_notify(
                client, notification.appName, notification.summary, notification.body, actions,
                Int32(notification.actions.count * 2), notification.expireTimeout, &id)
        }
        guard code >= 0 else { throw failure("Notify", code) }
        return id
    }

    /// Waits for the user's answer to notification `id`: an action, its closing, or `timeout`.
    /// - Throws: `NotificationError.callFailed` when the bus goes away.
    public func response(to id: UInt32, timeout: Duration) throws(NotificationError) -> Response {
        var key = [CChar](repeating: 0, count: 128)
        let microseconds = timeout.components.seconds * 1_000_000 + timeout.components.attoseconds / 1_000_000_000_000
        let event = cnotify_wait(client, id, UInt64(max(0, microseconds)), &key, key.count)
        switch event {
        case Int32(CNOTIFY_ACTION_INVOKED):
            return .action(String(decoding: key.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        case Int32(CNOTIFY_CLOSED): return .closed
        case Int32(CNOTIFY_TIMED_OUT): return .timedOut
        default: throw failure("waiting for an answer", event)
        }
    }

    private func failure(_ operation: String, _ code: Int32) -> NotificationError {
        .callFailed(operation: operation, code: code, message: String(cString: cnotify_last_error(client)))
    }
}

/// `strings` as a C array of C strings, for the length of `body`.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    // Never empty (an empty array may have no base address).
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
