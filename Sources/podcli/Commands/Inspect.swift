import Arguments
import Feeds
import FoundationEssentials
import PodcliKit

/// `podcli inspect FILE|URL`: reads a feed the way a subscription would, and tells what podcli
/// finds in it, without recording anything.
enum Inspect: Command {
    static let source = Positional(
        "source", help: "A feed file, or a feed's http(s) URL.", domain: .file(extensions: []))
    static let json = Flag("json", help: "Print everything read from the feed as JSON.")

    static let spec = CommandSpec(
        name: "inspect", abstract: "Show what podcli reads from a feed, without subscribing.",
        positionals: [source], flags: [json], group: .maintenance)

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let source = arguments[source]!
        let document: FeedDocument
        if source.contains("://") {
            // Read as a subscription would read it, recording nothing.
            guard
                case .document(let read, _, _) = try FeedUpdater.fetch(
                    FeedUpdater.subscribeRequest(url: source), with: context.feedFetcher())
            else { throw FeedUpdater.servesAudio(source) }
            document = read
        } else {
            document = try FeedParser(baseURL: URL(fileURLWithPath: source).absoluteString).parse(contentsOf: source)
        }
        if arguments[json] {
            context.output.json(try EpisodeReport.json(document))
            return
        }
        let output = context.output
        output.print("Title:     \(document.title)")
        if let author = document.author { output.print("Author:    \(author)") }
        if let link = document.link { output.print("Link:      \(link)") }
        if let moved = document.newFeedURL { output.print("Moved to:  \(moved)") }
        output.print(
            "Episodes:  \(document.items.count)"
                + (document.itemsWithoutEnclosure > 0
                    ? " (and \(document.itemsWithoutEnclosure) items without audio)" : ""))
        if let newest = document.items.compactMap(\.published).max() {
            output.print("Newest:    \(Formatting.time(Int(newest)))")
        }
        for warning in document.warnings.prefix(5) { output.note("warning: \(warning)") }
    }
}
