import Arguments
import EpisodeStore
import PodcliKit

/// `podcli feeds`: the subscriptions, with their counts and how their last refresh went.
enum Feeds: Command {
    static let json = Flag("json", help: "Print the feeds as a JSON array.")

    static let spec = CommandSpec(
        name: "feeds", abstract: "List subscribed feeds: episodes, new, last refresh, last error.",
        discussion: discussion, flags: [json], group: .library)

    static let discussion = """
        A feed whose refresh failed says why until the next success; after three failures in a row \
        'sync' leaves it alone for an hour, then two, four, ... up to a day ('refresh' still tries). \
        Feed numbers are never given to another feed.

        --json keys: id, url, title, author, link, image_url, episodes, new, downloaded, subscribed_at, checked_at, changed_at, last_error, failures, retry_at
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let summaries = try context.library().feeds()
        if arguments[json] {
            context.output.json(try EpisodeReport.json(summaries.map(FeedReport.init)))
            return
        }
        guard !summaries.isEmpty else {
            context.output.note("No subscriptions yet: 'podcli fetch FEED_URL' subscribes to one.")
            return
        }
        let rows = summaries.map { summary in
            let feed = summary.feed
            return [
                "\(feed.id)", "\(summary.episodes)", "\(summary.new)", feed.checkedAt.map(Formatting.time) ?? "never",
                feed.title + (feed.lastError.map { "  (last refresh failed: \($0))" } ?? "")
                    + (feed.retryAt.map { "  (sync skips it until \(Formatting.time($0)))" } ?? ""),
            ]
        }
        for line in Table(header: ["ID", "EPISODES", "NEW", "CHECKED", "TITLE"], rows: rows).lines {
            context.output.print(line)
        }
    }
}
