import Arguments
import EpisodeStore
import PodcliKit

/// `podcli feeds`: the subscriptions, with their counts and how their last refresh went.
enum Feeds: Command {
    static let json = Flag("json", help: "Print the feeds as a JSON array.")

    static let spec = CommandSpec(
        name: "feeds", abstract: "List subscribed feeds: episodes, new, last refresh, last error.", flags: [json],
        group: .library)

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
