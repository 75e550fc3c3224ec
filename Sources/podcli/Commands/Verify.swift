import Arguments
import EpisodeStore
import PodcliKit

/// `podcli verify [ID] [--repair] [--json]`: compares downloaded files with their records.
enum Verify: Command {
    static let id = Positional("id", help: "Only this episode (default: every downloaded episode).", isOptional: true)
    static let repair = Flag(
        "repair", help: "Restore modes and owner, and download again what is missing or corrupt.")
    static let json = Flag("json", help: "Print each file checked, and what was found and done, as a JSON array.")

    static let spec = CommandSpec(
        name: "verify", abstract: "Check downloaded files against their records (size, SHA-256, mode, owner).",
        discussion: "Exits with 1 when a file differs from its record and was not repaired.",
        positionals: [id], flags: [repair, json])

    /// One file checked: what differed from its record, and what became of it.
    struct Check: Encodable {
        enum Outcome: String, Encodable {
            /// It matched its record.
            case matches
            /// It differs, and was not repaired.
            case differs
            /// Its modes or owner were put back.
            case repaired
            /// It was downloaded again (the server's bytes may differ from the record's).
            case downloaded
        }
        let id: Int
        let path: String
        let outcome: Outcome
        /// What differed, one phrase each ("mode 0644, recorded 0600").
        let differences: [String]
    }

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let output = context.output
        let episodes =
            try arguments[id].map { [try library.episode(matching: $0)] }
            ?? library.episodes().filter { $0.state == .downloaded }
        var checks: [Check] = []
        for episode in episodes {
            guard episode.state == .downloaded else {
                output.note("#\(episode.id) is not downloaded (\(episode.state.rawValue)): nothing to verify")
                continue
            }
            for file in try library.files(of: episode) {
                let drifts = library.check(file, of: episode)
                var outcome = Check.Outcome.matches
                if drifts.isEmpty {
                    try library.markVerified(file)
                } else {
                    if !arguments[json] {
                        for drift in drifts { output.print("#\(episode.id) \(file.relativePath): \(drift)", always: true) }
                    }
                    outcome =
                        arguments[repair]
                        ? try self.repair(file, of: episode, drifts: drifts, library: library, context: context,
                            quiet: arguments[json]) : .differs
                }
                checks.append(
                    Check(id: episode.id, path: file.relativePath, outcome: outcome, differences: drifts.map(\.description)))
            }
        }
        let unresolved = checks.filter { $0.outcome == .differs }.count
        if arguments[json] {
            output.print(try EpisodeReport.json(checks), always: true)
        } else {
            output.print(
                "Verified \(Formatting.count(checks.count, "file")): "
                    + (unresolved == 0 ? "all match their records" : "\(unresolved) differ"))
        }
        if unresolved > 0 {
            throw CommandFailure(
                description: "\(unresolved) file\(unresolved == 1 ? "" : "s") differ from the record"
                    + (arguments[repair] ? " and could not be repaired" : "; 'podcli verify --repair' can fix them"),
                exitCode: .drift)
        }
    }

    /// Repairs one file: what became of it.
    private static func repair(
        _ file: EpisodeFile, of episode: Episode, drifts: [Drift], library: Library, context: Context, quiet: Bool
    ) throws -> Check.Outcome {
        let say = { (line: String) in if !quiet { context.output.print(line, always: true) } }
        let remaining = library.repairAttributes(file, of: episode, drifts: drifts)
        if remaining.isEmpty {
            say("#\(episode.id) \(file.relativePath): repaired")
            try library.markVerified(file)
            return .repaired
        }
        guard remaining.contains(where: \.needsDownload) else { return .differs }
        let fetcher = EpisodeFetcher(library: library, downloader: context.downloader())
        let fresh = try fetcher.fetch(episode, showingProgressOn: context.output)
        if fresh.sha256 != file.sha256 {
            say("#\(episode.id): downloaded again; the server's file has changed since it was recorded")
        } else {
            say("#\(episode.id) \(fresh.relativePath): downloaded again")
        }
        return .downloaded
    }
}
