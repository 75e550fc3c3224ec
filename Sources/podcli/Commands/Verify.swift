import Arguments
import EpisodeStore
import PodcliKit
import Strings

/// `podcli verify [ID] [--repair] [--json]`: compares downloaded files with their records.
enum Verify: Command {
    static let id = Positional(
        "id", help: "Only this episode (default: every downloaded episode).", isOptional: true,
        domain: .dynamic(.episode))
    static let repair = Flag(
        "repair", help: "Restore modes and owner, and download again what is missing or corrupt.")
    static let json = Flag("json", help: "Print each file checked, and what was found and done, as a JSON array.")

    static let spec = CommandSpec(
        name: "verify", abstract: "Check downloaded files against their records (size, SHA-256, mode, owner).",
        discussion: discussion,
        positionals: [id], flags: [repair, json], group: .maintenance)

    static let discussion = """
        Each difference is one line: '#3 episodes/<uuid>/ep.mp3: mode 0644, recorded 0600'. \
        --repair restores modes and owner, and downloads again what is missing or corrupt.

        --json keys: id, path, outcome (matches, differs, repaired, downloaded), differences

        Exit status: 1 when a file differs from its record and was not repaired.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let output = context.output
        let episodes =
            try arguments[id].map { [try library.episode(matching: $0)] }
            ?? library.episodes().filter { $0.state == .downloaded }
        for episode in episodes where episode.state != .downloaded {
            output.note("#\(episode.id) is not downloaded (\(episode.state.rawValue)): nothing to verify")
        }
        let fetcher = EpisodeFetcher(library: library, downloader: context.downloader())
        let verification = Verification(
            library: library,
            redownload: arguments[repair] ? { try fetcher.fetch($0, showingProgressOn: output) } : nil)
        let checks = try verification.run(episodes) { event in
            guard !arguments[json] else { return }
            switch event {
            case .differs(let episode, let file, let drift):
                output.print("#\(episode.id) \(file.relativePath): \(drift)", always: true)
            case .repaired(let episode, let file):
                output.print("#\(episode.id) \(file.relativePath): repaired", always: true)
            case .downloaded(let episode, _, changed: true):
                output.print(
                    "#\(episode.id): downloaded again; the server's file has changed since it was recorded",
                    always: true)
            case .downloaded(let episode, let file, changed: false):
                output.print("#\(episode.id) \(file.relativePath): downloaded again", always: true)
            }
        }
        let unresolved = checks.filter { $0.outcome == .differs }.count
        if arguments[json] {
            output.json(try EpisodeReport.json(checks))
        } else {
            output.print(
                "Verified \(Formatting.count(checks.count, "file")): "
                    + (unresolved == 0
                        ? "all match their records"
                        : "\(unresolved) " + Counted.agreeing(with: unresolved, "differs", "differ")))
        }
        if unresolved > 0 {
            throw CommandFailure(
                description: Formatting.count(unresolved, "file") + " "
                    + Counted.agreeing(with: unresolved, "differs", "differ") + " from the record"
                    + (arguments[repair] ? " and could not be repaired" : "; 'podcli verify --repair' can fix them"),
                exitCode: .drift)
        }
    }
}
