import Arguments
import EpisodeStore
import PodcliKit
import Strings

/// `podcli mark played|unplayed|new|old ID... [--feed FEED] [--before DATE]`: marks episodes in
/// bulk, as gPodder's and the TUIs' keys do. A group: each mark is a subcommand.
enum Mark: Command {
    static let subcommands: [any Command.Type] = [MarkPlayed.self, MarkUnplayed.self, MarkNew.self, MarkOld.self]

    static let spec = CommandSpec(
        name: "mark", abstract: "Mark episodes played, unplayed, new or old, in bulk.",
        subcommands: subcommands.map { $0.spec }, group: .library)

    /// Not reached: the parser refuses a group named without one of its subcommands.
    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        throw UsageError.missingCommand
    }

    static let ids = Positional(
        "id",
        help: "The episodes' numbers or unique prefixes of their UUIDs (none: every episode --feed and "
            + "--before select).", isOptional: true, isRepeating: true, domain: .dynamic(.episode))
    static let feed = Option(
        "feed", valueName: "feed", help: "Only this feed's episodes: its number, URL, or a unique part of its title.",
        domain: .dynamic(.feed))
    static let before = Option(
        "before", valueName: "date",
        help: "Only episodes published before <date> (YYYY-MM-DD, local time; an episode with no date counts "
            + "from when podcli first saw it).")

    /// The spec of the subcommand that sets `mark`.
    static func spec(_ mark: EpisodeMark, abstract: String) -> CommandSpec {
        CommandSpec(
            name: mark.rawValue, abstract: abstract,
            discussion: "IDs, --feed and --before narrow each other: 'mark played --feed 3 --before 2025-01-01' "
                + "marks the feed's episodes published before 2025. All are marked in one transaction.",
            positionals: [ids], options: [feed, before])
    }

    /// Marks the episodes `arguments` select and says how many changed.
    /// - Throws: `UsageError` with nothing selected or a bad date; a `notFound` failure when
    ///   nothing matches (nothing is marked then).
    static func mark(_ mark: EpisodeMark, _ arguments: ParsedArguments, in context: Context) throws {
        let references = arguments.values(ids)
        let day = try arguments.value(before, as: "a date, YYYY-MM-DD", CalendarDay.init)
        guard !references.isEmpty || arguments[feed] != nil || day != nil else {
            throw UsageError.conflicting("give the episodes to mark: IDs, --feed FEED or --before DATE")
        }
        let library = try context.library()
        var selection = EpisodeSelection()
        var described: [String] = []
        if !references.isEmpty {
            let episodes = try Queue.episodes(references, in: library)
            selection.ids = episodes.map(\.id)
            described.append("among " + episodes.map { "#\($0.id)" }.joined(separator: ", "))
        }
        if let reference = arguments[feed] {
            let feed = try library.feed(matching: reference)
            selection.feedID = feed.id
            described.append("of '\(feed.title)'")
        }
        if let day, let text = arguments[before] {
            selection.publishedBefore = day.start
            described.append("published before \(text)")
        }
        let outcome = try library.mark(mark, selection)
        guard outcome.selected > 0 else {
            throw CommandFailure(
                description: "no episode \(described.joined(separator: " ")): nothing was marked", exitCode: .notFound)
        }
        let unchanged = outcome.selected - outcome.changed
        let already =
            unchanged == 0 ? "" : " (\(unchanged) already \(Counted.agreeing(with: unchanged, "was", "were")))"
        context.output.print("Marked \(Formatting.count(outcome.changed, "episode")) \(mark.rawValue)\(already)")
    }
}

/// A subcommand of `mark`: the mark it sets, and its help.
protocol MarkCommand: Command {
    static var mark: EpisodeMark { get }
    static var abstract: String { get }
}

extension MarkCommand {
    static var spec: CommandSpec { Mark.spec(mark, abstract: abstract) }

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        try Mark.mark(mark, arguments, in: context)
    }
}

enum MarkPlayed: MarkCommand {
    static let mark = EpisodeMark.played
    static let abstract = "Mark episodes played, as 'm' does while playing: heard, not new."
}

enum MarkUnplayed: MarkCommand {
    static let mark = EpisodeMark.unplayed
    static let abstract = "Mark episodes unplayed: not heard, to play from the start."
}

enum MarkNew: MarkCommand {
    static let mark = EpisodeMark.new
    static let abstract = "Mark episodes new ('list --new' shows those not played)."
}

enum MarkOld: MarkCommand {
    static let mark = EpisodeMark.old
    static let abstract = "Mark episodes no longer new."
}
