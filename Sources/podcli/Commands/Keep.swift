import Arguments
import EpisodeStore
import PodcliKit

/// `podcli keep ID...` / `podcli unkeep ID...`: episodes sync's retention must never delete.
enum Keep: Command {
    static let ids = Positional(
        "id", help: "The episodes' numbers or unique prefixes of their UUIDs.", isRepeating: true,
        domain: .dynamic(.episode))

    static let spec = CommandSpec(
        name: "keep", abstract: "Keep episodes: 'podcli sync' never deletes them (see 'unkeep').", positionals: [ids],
        group: .library)

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        try mark(arguments, kept: true, in: context)
    }

    static func mark(_ arguments: ParsedArguments, kept: Bool, in context: Context) throws {
        let library = try context.library()
        for episode in try Queue.episodes(arguments.values(ids), in: library) {
            try library.setKept(kept, of: episode)
            context.output.print((kept ? "Keeping" : "No longer keeping") + " #\(episode.id) \(episode.title)")
        }
    }
}

enum Unkeep: Command {
    static let spec = CommandSpec(
        name: "unkeep", abstract: "Let 'podcli sync' delete episodes again when policy says so.",
        positionals: [Keep.ids], group: .library)

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        try Keep.mark(arguments, kept: false, in: context)
    }
}
