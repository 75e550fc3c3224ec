import Arguments
import EpisodeStore
import PodcliKit

/// `podcli stats`: time listened and time saved, per feed and in all, from the listening log.
enum Stats: Command {
    static let since = Option("since", valueName: "date", help: "Count from this day on (YYYY-MM-DD, local time).")
    static let feed = Option(
        "feed", valueName: "feed", help: "Only this feed: its number, URL, or a unique part of its title.",
        domain: .dynamic(.feed))
    static let json = Flag("json", help: "Print the statistics as JSON (times in seconds).")

    static let spec = CommandSpec(
        name: "stats", abstract: "Show time listened and time saved, per feed and in all.",
        discussion: discussion,
        options: [since, feed], flags: [json], group: .maintenance)

    static let discussion = """
        MEDIA is the time of the episodes played, WALL the time it took. Skip silence saves the \
        media it leaves out (SILENCE); speed saves the rest of the difference (SPEED: MEDIA less \
        SILENCE less WALL); intros and outros skipped (INTRO/OUTRO) were never played. FINISHED \
        counts episodes played to their end (or to m). Deleted episodes and unsubscribed feeds keep \
        their time. The log begins when the library was made or upgraded to it, and says so.

        --json keys: since, counting_since, feeds and total, each with feed_id, title, episodes, finished, media_seconds, wall_seconds, saved_by_speed_seconds, saved_by_silence_seconds, saved_by_intro_outro_seconds, saved_seconds

        Exit status: 64 when --since is not a date (YYYY-MM-DD), 66 when no feed matches --feed.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let day = try arguments.value(since, as: "a date, YYYY-MM-DD", CalendarDay.init)
        let library = try context.library()
        let feedID = try arguments[feed].map { reference throws in try library.feed(matching: reference).id }
        let report = try ListeningReport(library, from: day, feedID: feedID)
        if arguments[json] {
            context.output.json(try EpisodeReport.json(report))
            return
        }
        context.output.print("Listening since \(report.since)")
        guard !report.feeds.isEmpty else {
            context.output.print("Nothing played.")
            return
        }
        let rows =
            report.feeds.map { [$0.title ?? "(no feed)"] + cells($0) } + [["Total"] + cells(report.total)]
        let header = ["FEED", "EPISODES", "FINISHED", "MEDIA", "WALL", "SPEED", "SILENCE", "INTRO/OUTRO"]
        for line in Table(header: header, rows: rows).lines {
            context.output.print(line)
        }
    }

    /// The figures after the name: counts, then times as podcli writes lengths.
    private static func cells(_ figures: ListeningReport.Figures) -> [String] {
        ["\(figures.episodes)", "\(figures.finished)"]
            + [figures.media, figures.wall, figures.savedBySpeed, figures.savedBySilence, figures.savedByIntroOutro].map
        {
            Formatting.duration(seconds: Int($0.rounded()))
        }
    }
}
