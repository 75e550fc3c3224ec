import Arguments
import EpisodeStore
import PodcliKit

/// `podcli download ID...`: downloads episodes the library lists, named as everywhere an episode
/// is meant (its number or a unique prefix of its UUID), without copying an enclosure URL out of
/// `show`.
enum Download: Command {
    static let ids = Positional(
        "id", help: "The episodes' numbers or unique prefixes of their UUIDs.", isRepeating: true,
        domain: .dynamic(.episode))

    static let spec = CommandSpec(
        name: "download", abstract: "Download listed episodes (as 'fetch' downloads an audio URL).",
        discussion: discussion,
        positionals: [ids], group: .library)

    static let discussion = """
        Each episode downloads as 'fetch' downloads audio ('podcli help fetch': resuming, retries, \
        the checks, measuring, chapters and transcript). An episode that fails is reported on its \
        own line and the others go on; the exit code is the first failure's.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let episodes = try arguments.values(ids).map { reference throws(StoreError) in
            try library.episode(matching: reference)
        }
        let fetcher = EpisodeFetcher(library: library, downloader: context.downloader())
        let measuring = Fetch.measuringWorker(library: library, output: context.output)
        defer { measuring.finish() }
        let name = { (episode: Episode) in "#\(episode.id) \(episode.title)" }
        try Reported.forEach(
            episodes, noun: "episode", undone: "not downloaded", output: context.output, name: name
        ) { episode in
            try Fetch.download(episode, with: fetcher, library: library, output: context.output, measuring: measuring)
        }
    }
}
