import Arguments
import EpisodeStore
import PodcliKit

/// `podcli show ID`: everything recorded about one episode.
enum Show: Command {
    static let id = Positional(
        "id", help: "The episode's number or a unique prefix of its UUID.", domain: .dynamic(.episode))
    static let json = Flag("json", help: "Print the episode as JSON.")

    static let spec = CommandSpec(
        name: "show", abstract: "Show an episode: its file, checksum, protection and position.",
        positionals: [id], flags: [json], group: .library)

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let report = try EpisodeReport(library.episode(matching: arguments[id]!), in: library)
        if arguments[json] {
            context.output.json(try EpisodeReport.json(report))
        } else {
            for line in report.lines { context.output.print(line) }
        }
    }
}
