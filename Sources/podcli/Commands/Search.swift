import Arguments
import PodcastDirectory
import PodcliKit
import Strings

/// `podcli search TERMS`: podcasts from the directories (Apple's, and Podcast Index with a key),
/// numbered for `podcli fetch --result N`.
enum Search: Command {
    static let terms = Positional("terms", help: "Words of a podcast's title or author.", isRepeating: true)
    static let limit = Option(
        "limit", valueName: "n", help: "At most <n> podcasts from each directory (1-200).", defaultValue: "20")
    static let json = Flag("json", help: "Print the results as a JSON array.")

    static let spec = CommandSpec(
        name: "search", abstract: "Find podcasts in Apple Podcasts' directory (and Podcast Index).",
        discussion: discussion,
        positionals: [terms], options: [limit], flags: [json], group: .library)

    static let discussion = """
        Asks the iTunes Search API at directory-url, and Podcast Index too when podcastindex-key \
        and podcastindex-secret-command are set. FOLLOWING marks the feeds you subscribe to. The \
        results are kept: 'podcli fetch --result N' subscribes to result N of the last search.

        --json keys: number, title, author, episodes, last_release, genre, feed_url, directory, id, following

        Exit status: 64 when Podcast Index refuses the key, 65 when a directory answers with \
        something that is not its API's (an HTML page, a count that disagrees), 66 when nothing \
        is found, 69 when it cannot be reached or refuses (a 403).
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let term = arguments.values(terms).joined(separator: " ")
        let count =
            try arguments.value(limit, as: "a number from 1 to 200") {
                Int($0).flatMap { (1...200).contains($0) ? $0 : nil }
            } ?? 20
        guard !term.trimmingWhitespace().isEmpty else {
            throw UsageError.conflicting("search for what? Give words of a title or author")
        }
        let settings = try context.config().directory
        let found = try PodcastFinder(settings: settings, client: context.apiClient()).search(term, limit: count)
        for failure in found.failures { context.output.note("warning: \(failure)") }
        try LastSearch(term: term, podcasts: found.podcasts).keep(in: context.directories.get().state)
        let library = try context.library()
        let following = try found.podcasts.map { try library.feed(url: $0.feedURL) != nil }
        if arguments[json] {
            let reports = found.podcasts.enumerated().map {
                SearchReport(number: $0.offset + 1, podcast: $0.element, following: following[$0.offset])
            }
            context.output.json(try EpisodeReport.json(reports))
            return
        }
        let rows = found.podcasts.enumerated().map { index, podcast in
            [
                "\(index + 1)", following[index] ? "✓" : "", podcast.episodeCount.map { "\($0)" } ?? "",
                podcast.lastRelease.map { Formatting.day(Int($0.timeIntervalSince1970)) } ?? "", podcast.genre ?? "",
                podcast.author ?? "", podcast.title,
            ]
        }
        let header = ["#", "FOLLOWING", "EPISODES", "LAST", "GENRE", "AUTHOR", "TITLE"]
        for line in Table(header: header, rows: rows).lines { context.output.print(line) }
        if found.withoutFeed > 0 {
            context.output.note(
                "\(Formatting.count(found.withoutFeed, "more result")) without a feed (Apple's app only) left out")
        }
        context.output.note("'podcli fetch --result N' subscribes to result N.")
    }
}
