import Testing

/// What a person reading a corpus feed by hand expects podcli's parser to find in it.
///
/// The values are written down from the XML itself (see the rules in CorpusExpectations*.swift),
/// never copied from podcli's output.
struct FeedExpectation: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        /// The feed parses; `episodes` items carry an enclosure.
        case parses(episodes: Int)
        /// The body is not a readable feed; parsing throws.
        case fails
    }

    let file: String
    let outcome: Outcome
    /// The channel's (or Atom feed's) title, or nil when it is not checked.
    let title: String?
    let samples: [ItemExpectation]

    var testDescription: String { file }
}

struct ItemExpectation: Sendable {
    /// Position among the episodes (items with an enclosure), in document order, from 0.
    let index: Int
    let title: String
    let guid: String?
    let enclosureURL: String
    /// The enclosure's length in bytes; nil when absent, empty, zero or not a number.
    let length: Int64?
    /// The itunes:duration in seconds; nil when absent or unreadable.
    let duration: Double?
    /// The publication date in UTC as "yyyy-MM-ddTHH:mm:ssZ"; nil when absent or unreadable.
    let published: String?
}
