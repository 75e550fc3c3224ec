import Arguments
import EpisodeStore
import PodcliKit

/// `podcli star ID...` / `podcli unstar ID...`: episodes the user marks to find again
/// (`list --starred`).
enum Star: Command {
    static let ids = Positional(
        "id", help: "The episodes' numbers or unique prefixes of their UUIDs.", isRepeating: true,
        domain: .dynamic(.episode))

    static let spec = CommandSpec(
        name: "star", abstract: "Star episodes: 'podcli list --starred' lists them (see 'unstar').",
        positionals: [ids], group: .library)

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        try mark(arguments, starred: true, in: context)
    }

    /// Stars or unstars every episode named, in one transaction, after all are found.
    static func mark(_ arguments: ParsedArguments, starred: Bool, in context: Context) throws {
        let library = try context.library()
        let episodes = try Queue.episodes(arguments.values(ids), in: library)
        let changed = try library.setStarred(starred, of: episodes)
        for episode in episodes {
            if changed.contains(episode.id) {
                context.output.print((starred ? "Starred" : "Unstarred") + " #\(episode.id) \(episode.title)")
            } else {
                context.output.print("#\(episode.id) " + (starred ? "is already starred" : "was not starred"))
            }
        }
    }
}

enum Unstar: Command {
    static let spec = CommandSpec(
        name: "unstar", abstract: "Take the star off episodes.", positionals: [Star.ids], group: .library)

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        try Star.mark(arguments, starred: false, in: context)
    }
}
