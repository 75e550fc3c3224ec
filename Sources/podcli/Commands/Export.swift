import Arguments
import EpisodeStore
import Feeds
import PodcliKit

/// `podcli export`: the subscriptions as OPML 2.0 on stdout.
enum Export: Command {
    static let withCredentials = Flag(
        "with-credentials",
        help: "Keep the passwords of feed URLs (user:password@host); without it they are written as ***.")

    static let spec = CommandSpec(
        name: "export", abstract: "Print the subscriptions as OPML 2.0.", flags: [withCredentials], group: .library,
        examples: [
            Example("podcli export > subscriptions.opml", "Save the subscriptions for another app.")
        ])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let outlines = try context.library().subscriptions().map { OPMLOutline(url: $0.url, title: $0.title) }
        context.output.document(
            OPML.document(title: "podcli subscriptions", outlines: outlines),
            hidingPasswords: !arguments[withCredentials])
    }
}
