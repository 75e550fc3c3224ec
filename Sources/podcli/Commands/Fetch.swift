import Arguments
import Downloads
import EpisodeStore
import Foundation

/// `podcli fetch URL`: downloads an episode from its audio URL into its own directory, records
/// it, and protects it.
enum Fetch: Command {
    static let url = Positional("url", help: "The episode's audio URL (http or https).")
    static let protection = Option(
        "protection", valueName: "class",
        help: "Who may read the files: private (owner only: 0700/0600) or open (0755/0644). "
            + "Default: the config's protection, else private.")
    static let title = Option("title", valueName: "text", help: "The episode's title (default: from the file name).")
    static let json = Flag("json", help: "Print the recorded episode as JSON (as 'show --json').")

    static let spec = CommandSpec(
        name: "fetch", abstract: "Download an episode from its audio URL.",
        discussion: """
            The file streams to episodes/<uuid>/<name>.part, is checked to be MPEG audio, synced, \
            and renamed into place in the same transaction that records it. Run the same command \
            again after an interruption to resume where it stopped.
            """,
        positionals: [url], options: [protection, title], flags: [json])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let url = arguments[url]!
        let chosenProtection = try arguments.value(protection, as: "private or open", Protection.init(rawValue:))
        let library = try context.library()
        let output = context.output

        let episode: Episode
        if let existing = try library.standaloneEpisode(sourceURL: url) {
            if existing.state == .downloaded {
                output.note("Already downloaded: #\(existing.id) \(existing.title)")
                try report(existing, library: library, arguments: arguments, output: output)
                return
            }
            episode = existing
            output.note("Resuming #\(episode.id) \(episode.title)")
        } else {
            try validate(url)
            let protection = try chosenProtection ?? context.config().protection
            episode = try library.createEpisode(
                title: arguments[title] ?? defaultTitle(for: url), sourceURL: url, protection: protection)
        }
        let fetcher = EpisodeFetcher(library: library, downloader: context.downloader(), output: output)
        let file = try fetcher.fetch(episode)
        let line =
            "Downloaded #\(episode.id) \(episode.title) (\(Formatting.bytes(file.size))): \(library.path(of: file))"
        if arguments[json] { output.note(line) } else { output.print(line) }
        try report(episode, library: library, arguments: arguments, output: output)
    }

    private static func report(_ episode: Episode, library: Library, arguments: ParsedArguments, output: Output) throws
    {
        guard arguments[json], let current = try library.episode(id: episode.id) else { return }
        output.print(try EpisodeReport.json(EpisodeReport(current, in: library)), always: true)
    }

    /// Refuses what is not an http(s) URL before anything is recorded.
    private static func validate(_ url: String) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else { throw DownloadError.invalidURL(url) }
    }

    /// "https://x/shows/ep-12.mp3?x=1" → "ep-12".
    static func defaultTitle(for url: String) -> String {
        let last = URLComponents(string: url)?.path.split(separator: "/").last.map(String.init)
        let name = last?.removingPercentEncoding ?? last ?? ""
        let stem = name.contains(".") ? String(name[..<name.lastIndex(of: ".")!]) : name
        return stem.isEmpty ? (URLComponents(string: url)?.host ?? url) : stem
    }
}
