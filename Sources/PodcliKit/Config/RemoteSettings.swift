import GPodderSync

#if canImport(Glibc)
    import Glibc
#endif

/// Where and as whom `sync` exchanges subscriptions and positions with a gpodder.net-API server
/// (`gpodder-*` settings). No password: only the command that prints it (`PasswordSource`).
public struct RemoteSettings: Equatable, Sendable {
    /// What a remote unsubscribe does with the feed's downloaded files.
    public enum UnsubscribeFiles: String, CaseIterable, Sendable {
        case keep, delete
    }

    /// The server's base URL (http or https, no credentials in it); nil: no exchange.
    public var server: String?
    public var user: String?
    /// A shell command whose first line of output is the password.
    public var passwordCommand: String?
    /// The device id this library is on the server; nil: `podcli-<hostname>`.
    public var device: String?
    /// Which endpoints the server speaks.
    public var api = SyncDialect.gpodder
    /// Whether the device is joined with the account's other devices (`sync-devices`).
    public var linkDevices = true
    public var unsubscribeFiles = UnsubscribeFiles.keep

    public init() {}

    /// The device id in effect.
    public var deviceID: String { device ?? Self.defaultDevice(hostname: Self.hostname) }

    /// `podcli-<hostname>`, with what a device id cannot hold made `-`.
    static func defaultDevice(hostname: String) -> String {
        "podcli-" + String(hostname.map { isDeviceCharacter($0) ? $0 : "-" })
    }

    /// This machine's name (empty when it has none).
    static var hostname: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// mygpo's rule for a device id: `^[\w.-]+$` (Python's `\w`: letters, digits and `_` of any script).
    static func isDeviceID(_ text: String) -> Bool { !text.isEmpty && text.allSatisfy(isDeviceCharacter) }

    private static func isDeviceCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "." || character == "-"
    }

    /// Whether `text` is an http or https URL with a host and no user or password in it (they are
    /// settings of their own, and a password has no place in the configuration file).
    static func isServerURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else { return false }
        let authority = text.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !authority.isEmpty && !authority.contains("@") && !text.contains(where: \.isWhitespace)
    }
}
