import Arguments
import Downloads
import EpisodeStore
import Feeds
import FoundationEssentials
import PodcastDirectory
import PodcliKit
import Strings

/// `podcli fetch URL`: subscribes to a feed (or refreshes a subscribed one), or downloads an
/// episode from its audio URL into its own directory, records it, and protects it.
enum Fetch: Command {
    static let url = Positional(
        "url",
        help: "A feed URL (subscribe or refresh), an audio URL (download), a subscribed feed's name or number, "
            + "or a listed episode's number or UUID prefix (download it) when no feed has it. An Apple Podcasts "
            + "link, or an itpc://, pcast://, podcast:// or feed: URL, subscribes to the feed behind it.",
        isOptional: true, domain: .dynamic(.feed))
    static let result = Option(
        "result", valueName: "n", help: "Subscribe to result <n> of the last 'podcli search' (instead of <url>).")
    static let protection = Option(
        "protection", valueName: "class",
        help: "Who may read the files: private (owner only: 0700/0600) or open (0755/0644). "
            + "Default: the config's protection, else private.",
        // The default first.
        domain: .choices([Protection.private, .open].map(\.rawValue)))
    static let title = Option("title", valueName: "text", help: "The episode's title (default: from the file name).")
    static let download = Option(
        "download", valueName: "n|all",
        help: "After reading a feed, download its <n> newest episodes not yet downloaded (or all of them).")
    static let json = Flag("json", help: "Print the recorded episode (or feed) as JSON (as 'show --json').")

    static let spec = CommandSpec(
        name: "fetch", abstract: "Subscribe to a feed, or download an episode from its audio URL.",
        discussion: discussion,
        positionals: [url], options: [result, protection, title, download], flags: [json], group: .library,
        examples: [
            Example(
                "podcli fetch https://example.org/feed.xml --download 3",
                "Subscribe to a feed and download its three newest episodes."),
            Example(
                "podcli search --limit 5 darknet diaries && podcli fetch --result 1",
                "Find a podcast by name, then subscribe to the first result."),
        ])

    static let discussion = """
        What the server sends decides: RSS or Atom is subscribed to, audio (by its file name, \
        Content-Type or first bytes) is downloaded as an episode, anything else (an HTML page, \
        plain text, an empty body) is refused with nothing stored (exit 65).

        A feed: the podcast and all its episodes are recorded; only the newest counts as new, \
        and nothing is downloaded unless --download asks. Fetching a subscribed feed refreshes \
        it: a conditional GET (an unchanged feed is one small 304), gzip, and a 301/308 or an \
        itunes:new-feed-url updates the stored URL. An episode is known across refreshes by its \
        guid, else its enclosure URL with tracking prefixes stripped, else title and date; one \
        without a date is dated when first seen, in its place in the feed's order. An episode \
        the feed stops listing keeps its record and files.

        Read: RSS 2.0 with the iTunes namespace, Podcasting 2.0 (guid, chapters, transcript, \
        person), Podlove Simple Chapters, Atom, Media RSS; UTF-8, UTF-16 and the ASCII-based \
        encodings real feeds declare. Refused (exit 65): a feed over 128 MiB, a start tag of \
        more than 1,000 attributes, one that takes libxml2 more than 20 s of CPU. External \
        entities and DTDs are never loaded, internal entities never expanded.

        Audio (http or https, TLS verified): MP3 (MP2, MP1), MP4/M4A/M4B (AAC, ALAC), raw AAC, \
        Ogg (Opus, Vorbis, FLAC) and FLAC, told by their first bytes. It streams to \
        episodes/<uuid>/<name>.part (the name from Content-Disposition or the URL, sanitised, \
        at most 120 bytes) and is hashed as it comes. Complete, its structure is checked as the \
        player would (an M4A cut short or without its index, DRM, a codec podcli cannot decode, \
        a bad Ogg page): audio that cannot be played is exit 65, nothing kept. Then it is synced \
        and renamed into place in the transaction that records it. After the download the file is measured \
        (exact length, loudness), and the feed's chapters (.chapters.json) and transcript \
        (transcript.json: the most structured offer, at most 20 MiB) are kept beside it.

        Interrupted? Run the same command again: it resumes with a Range request. Connection \
        errors, timeouts, 408, 429 and 5xx are retried (5 attempts for audio, 3 for a feed) \
        with backoff, honouring a Retry-After of up to 2 minutes; at most 10 redirects; a \
        transfer under 1 KiB/s for 60 s is cut and retried. A host that refuses the connection \
        or does not resolve is not retried (exit 69). A fetch that kept nothing (a 404, not \
        audio) leaves nothing: no episode, no directory. The progress bar is drawn on stderr \
        only when it is a terminal.

        Protection classes: private (directory 0700, files 0600: the owner only) or open \
        (0755/0644: any local user or service, e.g. a media server); --protection or the \
        config's protection. Others reach open files only through directories they may enter: \
        the data directory podcli makes is 0700, so for a media server make the --home \
        directory yourself with the mode you choose (podcli keeps an existing one's mode).

        --json: the episode as 'show --json' gives it, or the feed as 'feeds --json' does.

        Exit status: 65 when the URL gives neither a feed nor playable audio, 66 when a name \
        or number matches no feed or episode, 69 when the server cannot be reached or fails \
        after retries, 74 when the disk is full, 75 when another podcli downloads the same \
        episode.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let url = try reference(arguments, in: context)
        let downloadCount = try arguments.value(download, as: "a number or 'all'", DownloadCount.init)
        let library = try context.library()
        let output = context.output
        let updater = FeedUpdater(
            library: library, fetcher: context.feedFetcher(),
            // The parser let only private or open through.
            protection: try arguments[protection].flatMap(Protection.init(rawValue:)) ?? context.config().protection)

        let (episode, madeHere): (Episode, Bool)
        switch try FetchTarget.resolve(url, in: library).resolve(with: updater, title: arguments[title]) {
        case .feed(let outcome):
            return try finish(outcome, downloading: downloadCount, arguments: arguments, context: context)
        case .episode(let found, let made):
            (episode, madeHere) = (found, made)
        }
        let fetcher = EpisodeFetcher(library: library, downloader: context.downloader())
        let measuring = measuringWorker(library: library, output: output)
        do {
            // With --json, stdout holds the JSON alone: the result line goes to stderr.
            try download(
                episode, with: fetcher, library: library, output: output, measuring: measuring,
                resultsOnStderr: arguments[json], announce: !madeHere)
        } catch {
            // "Nothing was kept" means nothing: not even a failed row of an episode it made.
            if madeHere { _ = try? library.forgetIfNothingKept(episode) }
            throw error
        }
        // The JSON tells the length and loudness measured.
        measuring.finish()
        try report(episode, library: library, arguments: arguments, output: output)
    }

    /// What to fetch: `<url>` as given, the feed behind a podcast link, or the feed of a result of
    /// the last search (`--result`, an option, so a bare number keeps naming a feed or episode).
    private static func reference(_ arguments: ParsedArguments, in context: Context) throws -> String {
        let number = try arguments.value(result, as: "a result number (1, 2, ...)") {
            Int($0).flatMap { $0 > 0 ? $0 : nil }
        }
        switch (arguments[url], number) {
        case (nil, nil):
            throw UsageError.missingArgument("<url>")
        case (.some, .some):
            throw UsageError.conflicting("give a URL or --result N, not both")
        case (nil, let number?):
            return try LastSearch.podcast(number, in: context.directories.get().state).feedURL
        case (let text?, nil):
            guard let link = PodcastLink.resolve(text) else { return text }
            let finder = PodcastFinder(settings: try context.config().directory, client: context.apiClient())
            return try finder.feedURL(for: link)
        }
    }

    /// Downloads `episode` (or says it is downloaded already): the one way `fetch` and
    /// `download` get an episode's audio and say so.
    static func download(
        _ episode: Episode, with fetcher: EpisodeFetcher, library: Library, output: Output,
        measuring: MeasuringWorker, resultsOnStderr: Bool = false, announce: Bool = true
    ) throws {
        let result = { (line: String) in if resultsOnStderr { output.note(line) } else { output.print(line) } }
        if episode.state == .downloaded, !(try library.files(of: episode).isEmpty) {
            var refresher = fetcher
            refresher.onEvent = { if case .warning(let line) = $0 { output.note("warning: " + line) } }
            try refresher.refreshTranscript(of: episode)
            return result("Already downloaded: #\(episode.id) \(episode.title)")
        }
        let file = try fetcher.fetch(episode, showingProgressOn: output) {
            guard announce else { return }
            output.note("\(episode.state == .new ? "Downloading" : "Resuming") #\(episode.id) \(episode.title)")
        }
        measuring.measure(file, subject: "#\(episode.id) \(episode.title)")
        result("Downloaded #\(episode.id) \(episode.title) (\(Formatting.bytes(file.size))): \(library.path(of: file))")
    }

    private static func report(_ episode: Episode, library: Library, arguments: ParsedArguments, output: Output) throws
    {
        guard arguments[json], let current = try library.episode(id: episode.id) else { return }
        output.json(try EpisodeReport.json(EpisodeReport(current, in: library)))
    }

    /// Reports a subscription or refresh, then downloads what `--download` asks for.
    private static func finish(
        _ outcome: FeedUpdater.Outcome, downloading count: DownloadCount?, arguments: ParsedArguments,
        context: Context
    ) throws {
        guard let feed = outcome.feed else { return }
        let library = try context.library()
        let output = context.output
        output.print(outcome.description)
        if let count {
            let fetcher = EpisodeFetcher(library: library, downloader: context.downloader())
            let measuring = measuringWorker(library: library, output: output)
            for episode in try library.newestNotDownloaded(of: feed, limit: count.limit) {
                let file = try fetcher.fetch(episode, showingProgressOn: output)
                measuring.measure(file, subject: "#\(episode.id) \(episode.title)")
                output.print("Downloaded #\(episode.id) \(episode.title) (\(Formatting.bytes(file.size)))")
            }
            measuring.finish()
        }
        if arguments[json], let current = try library.summary(of: feed) {
            output.json(try EpisodeReport.json(FeedReport(current)))
        }
    }

    /// Measures each download (`MeasuringWorker`) while the next one goes on; a file that cannot
    /// be measured is one warning line, never a failed download.
    static func measuringWorker(library: Library, output: Output) -> MeasuringWorker {
        MeasuringWorker(libraryDirectory: library.directory) { output.note("warning: " + $0) }
    }

    /// `--download`: a number of newest episodes, or all.
    struct DownloadCount {
        /// nil for all.
        let limit: Int?

        init?(_ text: String) {
            if text == "all" {
                limit = nil
            } else if let count = Int(text), count >= 0 {
                limit = count
            } else {
                return nil
            }
        }
    }
}
