import Arguments
import Chapters
import EpisodeStore
import PodcliKit
import RemoteControl
import Terminal

/// `podcli chapters ID [--json] [--skip N] [--unskip N]`: an episode's chapters, numbered in play
/// order, and which of them the player skips.
enum ChaptersCommand: Command {
    static let id = Positional(
        "id", help: "The episode's number or a unique prefix of its UUID.", domain: .dynamic(.episode))
    static let json = Flag("json", help: "Print the chapters as a JSON array (empty when there are none).")
    static let skip = Option(
        "skip", valueName: "n", help: "Skip these chapters when playing (numbers as listed: 2, or 2,5; repeatable).")
    static let unskip = Option("unskip", valueName: "n", help: "Play these skipped chapters again.")

    static let spec = CommandSpec(
        name: "chapters", abstract: "List an episode's chapters, and choose the ones to skip.",
        discussion: discussion, positionals: [id], options: [skip, unskip], flags: [json], group: .playback)

    static let discussion = """
        Chapters are numbered in play order, each with its start, end, title, URL and image. A \
        skipped chapter is jumped over as playing reaches it (also when --from lands in one); the \
        choice is kept by the chapter's start, so it holds when the chapters are read again, and a \
        running player is told. An episode without chapters says so and exits 0 ([] with --json).

        --json keys: number, start, end, title, url, image, skipped, navigation_stop

        Exit status: 64 when a number is no chapter's, 66 when no episode has that ID.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let episode = try library.episode(matching: arguments[id]!)
        var table = try EpisodeChapterTable(episode, in: library)
        let (skipped, unskipped) = (arguments.values(skip), arguments.values(unskip))
        if !skipped.isEmpty || !unskipped.isEmpty {
            let starts: (skip: [Int], unskip: [Int])
            do throws(NoSuchChapter) {
                starts = (
                    try table.starts(ofNumbers: skipped, episode: episode),
                    try table.starts(ofNumbers: unskipped, episode: episode)
                )
            } catch {
                throw CommandFailure(description: error.description, exitCode: .usage)
            }
            try library.setChaptersSkipped(true, starts: starts.skip, of: episode)
            try library.setChaptersSkipped(false, starts: starts.unskip, of: episode)
            // A player playing the episode skips as chosen from now on (none running: nothing to tell).
            if let socket = try? context.directories.get().controlSocket {
                _ = try? ControlClient.send("chapters-changed", to: socket)
            }
            table = try EpisodeChapterTable(episode, in: library)
        }
        let entries = table.chapters.enumerated().map { Entry($1, number: $0 + 1, skipped: table.isSkipped($1)) }
        if arguments[json] {
            context.output.json(try EpisodeReport.json(entries))
            return
        }
        guard !entries.isEmpty else {
            context.output.print("#\(episode.id) \(episode.title) has no chapters.")
            return
        }
        let rows = entries.map { entry in
            [
                "\(entry.number)", NowPlayingLine.clock(entry.start), entry.end.map(NowPlayingLine.clock) ?? "-",
                (entry.title ?? "") + (entry.skipped ? " (skipped)" : ""),
            ]
        }
        let widths = Table.widths(of: [header] + rows)
        context.output.print(Table.line(header, widths: widths))
        for (row, entry) in zip(rows, entries) {
            context.output.print(Table.line(row, widths: widths))
            // A chapter's link and image under it, where they have the width they need.
            let indent = String(repeating: " ", count: widths[0] + 2)
            if let url = entry.url { context.output.print(indent + "URL: " + url) }
            if let image = entry.image { context.output.print(indent + "Image: " + image) }
        }
    }

    private static let header = ["N", "START", "END", "TITLE"]

    /// "Chapter 2: Title (4:10-12:00)", for `status`.
    static func line(_ chapter: NowPlayingChapter) -> String {
        let end = chapter.end.map { "-" + NowPlayingLine.clock($0) } ?? ""
        return "Chapter \(chapter.number): \(chapter.name) (\(NowPlayingLine.clock(chapter.start))\(end))"
    }

    /// One chapter as `--json` gives it.
    struct Entry: Encodable {
        let number: Int
        /// Seconds.
        let start: Double
        let end: Double?
        let title: String?
        let url: String?
        let image: String?
        let skipped: Bool
        /// False for a chapter next-chapter and prev-chapter pass by.
        let navigationStop: Bool

        init(_ chapter: Chapter, number: Int, skipped: Bool) {
            self.number = number
            start = chapter.start
            end = chapter.end
            title = chapter.title
            url = chapter.url
            image = chapter.image
            self.skipped = skipped
            navigationStop = chapter.isNavigationStop
        }

        enum CodingKeys: String, CodingKey {
            case number, start, end, title, url, image, skipped
            case navigationStop = "navigation_stop"
        }

        /// Every key, null when unknown: a script reads the same shape for every chapter.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(start, forKey: .start)
            try container.encode(end, forKey: .end)
            try container.encode(title, forKey: .title)
            try container.encode(url, forKey: .url)
            try container.encode(image, forKey: .image)
            try container.encode(skipped, forKey: .skipped)
            try container.encode(navigationStop, forKey: .navigationStop)
        }
    }
}
