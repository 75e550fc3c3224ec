import Arguments
import EpisodeStore
import PodcliKit

/// `podcli queue ls`: the queued episodes in play order, one line each, and the time they take.
enum QueueList: Command {
    static let json = Flag(
        "json", help: "Print the queued episodes as a JSON array, in play order, each with its speed and time left.")

    static let spec = CommandSpec(
        name: "ls", abstract: "List the queue in play order, with the time left at each episode's speed.",
        discussion: discussion, flags: [json])

    static let discussion = """
        Time left is each episode's length (measured, else the feed's) less where it was left, at \
        the speed it plays at (its feed's speed, else the global one); an episode of unknown length \
        makes the total 'at least'.

        --json keys: those of 'list --json', and speed, left (seconds)
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let time = QueueTime(
            try library.queueListing(), listening: try Listening(config: context.config(), library: library))
        if arguments[json] {
            context.output.json(try EpisodeReport.json(time.entries))
            return
        }
        guard !time.entries.isEmpty else {
            context.output.print("The queue is empty.")
            return
        }
        let showFeed = time.entries.contains { $0.listing.feedTitle != nil }
        let showSpeed = time.entries.contains { $0.speed != 1 }
        let rows = time.entries.enumerated().map { offset, entry in
            let listing = entry.listing
            var row = [
                "\(offset + 1)", "\(listing.id)", state(of: listing),
                listing.durationMilliseconds.map { Formatting.duration(seconds: $0 / 1000) } ?? "-",
            ]
            if showSpeed { row.append(ConfigValue.number(entry.speed) + "x") }
            row.append(entry.left.map(clock) ?? "-")
            if showFeed { row.append(listing.feedTitle ?? "-") }
            row.append(listing.title)
            return row
        }
        let header =
            ["#", "ID", "STATE", "LENGTH"] + (showSpeed ? ["SPEED"] : []) + ["LEFT"] + (showFeed ? ["FEED"] : [])
            + ["TITLE"]
        for line in Table(header: header, rows: rows).lines {
            context.output.print(line)
        }
        context.output.print(summary(of: time))
    }

    /// "Time left: 45:00 (3 episodes)", "at least" when some have no length.
    private static func summary(of time: QueueTime) -> String {
        let count = Formatting.count(time.entries.count, "episode")
        guard time.unknownLengths > 0 else { return "Time left: \(clock(time.total)) (\(count))" }
        return "Time left: at least \(clock(time.total)) (\(count), \(time.unknownLengths) of unknown length)"
    }

    /// Seconds of listening as the LENGTH column shows a length (whole seconds).
    private static func clock(_ seconds: Double) -> String {
        Formatting.duration(seconds: Int(seconds))
    }

    /// Whether the episode can be played now: a queued episode need not be downloaded yet.
    private static func state(of episode: EpisodeListing) -> String {
        switch episode.state {
        case .new, .queued: "not downloaded"
        case .downloading, .downloaded, .failed: episode.state.rawValue
        }
    }
}
