/// A `[feed "NAME"]` section: the settings it gives, in order.
public struct FeedSection: Sendable {
    public let name: String
    /// `file:line` of its header.
    public let location: String
    public var assignments: [(setting: Setting, value: String)] = []
}
