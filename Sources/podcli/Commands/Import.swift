import Arguments
import EpisodeStore
import Feeds
import PodcliKit

/// `podcli import FILE.opml`: subscribes to every feed of an OPML file (refreshing the ones
/// already subscribed). One failing feed does not stop the others.
enum Import: Command {
    static let file = Positional("file", help: "An OPML file, as exported by podcast apps.")

    static let spec = CommandSpec(
        name: "import", abstract: "Subscribe to the feeds of an OPML file.",
        discussion: """
            Feeds already subscribed are refreshed. A feed that fails is reported on its own line and \
            the others go on; the exit code is then that of the failure.
            """,
        positionals: [file])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let path = arguments[file]!
        let outlines: [OPMLOutline]
        do {
            outlines = try OPML.outlines(contentsOf: path)
        } catch {
            if case .unreadable = error { throw error }
            throw CommandFailure(description: "\(path): \(Self.describe(error))", exitCode: ExitCode(for: error))
        }
        let library = try context.library()
        let updater = FeedUpdater(
            library: library, fetcher: context.feedFetcher(), protection: try context.config().protection)
        var subscribed = 0
        var refreshed = 0
        defer {
            context.output.print("Subscribed to \(Formatting.count(subscribed, "feed")), refreshed \(refreshed)")
        }
        try Reported.forEach(outlines, output: context.output, name: \.url) { outline in
            let outcome =
                if let feed = try library.feed(url: outline.url) {
                    try updater.refresh(feed)
                } else {
                    try updater.subscribe(url: outline.url)
                }
            switch outcome {
            case .subscribed: subscribed += 1
            case .refreshed, .unchanged: refreshed += 1
            case .audio: throw FeedUpdater.servesAudio(outline.url)
            }
        }
    }
}

extension Import {
    /// The OPML reader shares the feed parser's errors; say them in OPML's terms.
    static func describe(_ error: FeedError) -> String {
        switch error {
        case .empty: return "the file is empty"
        case .notAFeed(let root): return "not an OPML subscription list (the document is <\(root)>)"
        case .notXML, .truncated, .textTooLong, .badEncoding, .unreadable: return "not an OPML subscription list: \(error)"
        }
    }
}
