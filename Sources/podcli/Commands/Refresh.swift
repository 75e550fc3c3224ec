import Arguments
import EpisodeStore
import PodcliKit

/// `podcli refresh [FEED]`: fetches subscribed feeds (conditional GET) and records new episodes.
enum Refresh: Command {
    static let feed = Positional(
        "feed", help: "Only this feed: its number, URL, or a unique part of its title.", isOptional: true,
        domain: .dynamic(.feed))

    static let spec = CommandSpec(
        name: "refresh", abstract: "Check subscribed feeds for new episodes (downloads nothing).",
        discussion: "A feed that fails is reported on its own line and the others go on.",
        positionals: [feed], group: .library)

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let feeds = try arguments[feed].map { [try library.feed(matching: $0)] } ?? library.subscriptions()
        let updater = FeedUpdater(
            library: library, fetcher: context.feedFetcher(), protection: try context.config().protection)
        var newEpisodes = 0
        defer { context.output.print("Checked \(Formatting.count(feeds.count, "feed")): \(newEpisodes) new") }
        let name = { (feed: Feed) in "#\(feed.id) \(feed.title)" }
        try Reported.forEach(feeds, undone: "not refreshed", output: context.output, name: name) { feed in
            let outcome = try updater.refresh(feed) { context.output.note("#\(feed.id) \(feed.title): \($0)") }
            guard case .refreshed(_, let summary) = outcome, !summary.newEpisodeIDs.isEmpty else {
                return
            }
            newEpisodes += summary.newEpisodeIDs.count
            context.output.print("#\(feed.id) \(feed.title): \(summary.newEpisodeIDs.count) new")
        }
    }
}
