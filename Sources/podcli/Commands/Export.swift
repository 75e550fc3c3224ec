import Arguments
import EpisodeStore
import Feeds
import PodcliKit

/// `podcli export`: the subscriptions as OPML 2.0 on stdout.
enum Export: Command {
    static let spec = CommandSpec(name: "export", abstract: "Print the subscriptions as OPML 2.0.")

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let outlines = try context.library().subscriptions().map { OPMLOutline(url: $0.url, title: $0.title) }
        context.output.print(OPML.document(title: "podcli subscriptions", outlines: outlines), always: true)
    }
}
