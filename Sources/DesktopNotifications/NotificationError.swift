#if canImport(Glibc)
    import Glibc
#endif

/// Why a desktop notification could not be shown, or its answer not heard.
public enum NotificationError: Error, Equatable, CustomStringConvertible {
    /// No session bus to connect to (none running, or no address for it).
    case noBus(code: Int32)
    /// A call to the notification server failed: no server (`ServiceUnknown`), a timeout, a
    /// refusal. `message` is the D-Bus error, or the errno's text.
    case callFailed(operation: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .noBus(let code):
            return "no session bus: \(String(cString: strerror(-code)))"
        case .callFailed(let operation, _, let message):
            return "\(operation) failed: \(message)"
        }
    }
}
