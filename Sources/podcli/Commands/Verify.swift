import Arguments
import EpisodeStore

/// `podcli verify [ID] [--repair]`: compares downloaded files with their records.
enum Verify: Command {
    static let id = Positional("id", help: "Only this episode (default: every downloaded episode).", isOptional: true)
    static let repair = Flag(
        "repair", help: "Restore modes and owner, and download again what is missing or corrupt.")

    static let spec = CommandSpec(
        name: "verify", abstract: "Check downloaded files against their records (size, SHA-256, mode, owner).",
        discussion: "Exits with 1 when a file differs from its record and was not repaired.",
        positionals: [id], flags: [repair])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let output = context.output
        let episodes =
            try arguments[id].map { [try library.episode(matching: $0)] }
            ?? library.episodes().filter { $0.state == .downloaded }
        var checked = 0
        var unresolved = 0
        for episode in episodes {
            guard episode.state == .downloaded else {
                output.note("#\(episode.id) is not downloaded (\(episode.state.rawValue)): nothing to verify")
                continue
            }
            for file in try library.files(of: episode) {
                checked += 1
                let drifts = library.check(file, of: episode)
                if drifts.isEmpty {
                    try library.markVerified(file)
                    continue
                }
                for drift in drifts { output.print("#\(episode.id) \(file.relativePath): \(drift)", always: true) }
                guard arguments[repair] else {
                    unresolved += 1
                    continue
                }
                if try !self.repair(file, of: episode, drifts: drifts, library: library, context: context) {
                    unresolved += 1
                }
            }
        }
        let summary =
            "Verified \(checked) file\(checked == 1 ? "" : "s"): "
            + (unresolved == 0 ? "all match their records" : "\(unresolved) differ")
        output.print(summary)
        if unresolved > 0 {
            throw CommandFailure(
                description: "\(unresolved) file\(unresolved == 1 ? "" : "s") differ from the record"
                    + (arguments[repair] ? " and could not be repaired" : "; 'podcli verify --repair' can fix them"),
                exitCode: .drift)
        }
    }

    /// Repairs one file; true when it matches its record (or a fresh download) afterwards.
    private static func repair(
        _ file: EpisodeFile, of episode: Episode, drifts: [Drift], library: Library, context: Context
    ) throws -> Bool {
        let remaining = library.repairAttributes(file, of: episode, drifts: drifts)
        if remaining.isEmpty {
            context.output.print("#\(episode.id) \(file.relativePath): repaired", always: true)
            try library.markVerified(file)
            return true
        }
        guard remaining.contains(where: \.needsDownload) else { return false }
        let fetcher = EpisodeFetcher(library: library, downloader: context.downloader(), output: context.output)
        let fresh = try fetcher.fetch(episode)
        if fresh.sha256 != file.sha256 {
            context.output.print(
                "#\(episode.id): downloaded again; the server's file has changed since it was recorded", always: true)
        } else {
            context.output.print("#\(episode.id) \(fresh.relativePath): downloaded again", always: true)
        }
        return true
    }
}
