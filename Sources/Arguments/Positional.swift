/// A positional argument, matched in declaration order.
///
/// A repeating positional takes every remaining word, so it belongs last.
public struct Positional: Sendable, Hashable {
    public let name: String
    public let help: String
    public let isOptional: Bool
    public let isRepeating: Bool

    public init(_ name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isRepeating = isRepeating
    }

    /// The name as shown in help and errors: `<name>`.
    var displayName: String { "<\(name)>" }
}
