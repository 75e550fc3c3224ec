/// One notification as org.freedesktop.Notifications' Notify takes it (no icon, no hints).
public struct DesktopNotification: Equatable, Sendable {
    /// A button (or, with the key "default", a click on the notification itself).
    public struct Action: Equatable, Sendable {
        public let key: String
        public let label: String

        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    public var appName: String
    public var summary: String
    public var body: String
    /// Offered only by servers that advertise the "actions" capability.
    public var actions: [Action]
    /// Milliseconds; -1 lets the server decide, 0 never expires.
    public var expireTimeout: Int32

    public init(appName: String, summary: String, body: String, actions: [Action] = [], expireTimeout: Int32 = -1) {
        self.appName = appName
        self.summary = summary
        self.body = body
        self.actions = actions
        self.expireTimeout = expireTimeout
    }

    /// `text` for a server that reads the body as markup ("body-markup"), where `&`, `<` and `>`
    /// would otherwise be taken for markup or break it.
    public static func escapingMarkup(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
