/// A positional argument, matched in declaration order.
///
/// A repeating positional takes every remaining word, so it belongs last. Its values are read
/// with the declared `Positional` itself, so `name` is only what help and errors show.
public struct Positional: Sendable, Hashable {
    public let name: String
    public let help: String
    public let isOptional: Bool
    public let isRepeating: Bool
    /// What each value may be (fixed choices are checked while parsing).
    public let domain: ValueDomain

    public init(
        _ name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false,
        domain: ValueDomain = .any
    ) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isRepeating = isRepeating
        self.domain = domain
    }

    /// The name as shown in help and errors: `<name>`.
    var displayName: String { "<\(name)>" }
}
