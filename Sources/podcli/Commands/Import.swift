import Arguments
import EpisodeStore
import Feeds
import PodcliKit

/// `podcli import FILE`: subscribes to every feed of an OPML file (refreshing the ones already
/// subscribed; one failing feed does not stop the others), or takes in another app's library
/// (AntennaPod's database export, gPodder's Database), told apart by the file's content.
enum Import: Command {
    static let file = Positional(
        "file", help: "An OPML file, AntennaPod's database export or gPodder's Database file.",
        // Any file: gPodder's is named `Database`, with no extension to offer it by.
        domain: .file(extensions: []))

    static let spec = CommandSpec(
        name: "import",
        abstract: "Subscribe to the feeds of an OPML file, or take in AntennaPod's or gPodder's library.",
        discussion: discussion,
        positionals: [file], group: .library,
        examples: [
            Example("podcli import subscriptions.opml", "Subscribe to every feed of an OPML file.")
        ])

    static let discussion = """
        OPML (outlines at any depth of folders): feeds already subscribed are refreshed. A feed that \
        fails is reported on its own line and the others go on; the exit code is then the first \
        failure's. An outline podcli cannot fetch (ftp:, data:) is skipped with a note; characters \
        a URL cannot hold (spaces, é) are percent-encoded.

        AntennaPod's database export (its layouts since 1.6) or gPodder's Database file, told by \
        the content: the feeds, episodes, played marks, positions, queue and favourites (as stars), \
        from the file alone (no network; the next sync refreshes the feeds), in one transaction. \
        AntennaPod's per-feed speed, skip intro/ending and auto-download become speed, skip-intro, \
        skip-outro and download in the feed's config section; HTTP credentials go into the feed \
        URL. Nothing is deleted or overwritten, so importing again changes nothing. The file is only \
        read, never locked (a -wal beside it is not read).

        Exit status: 65 when the file is neither OPML nor such a library (or is damaged), with \
        nothing changed; 69 when no server could be reached.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let path = arguments[file]!
        if ForeignLibrary.isSQLite(path) { return try importLibrary(path, in: context) }
        let read: [OPMLOutline]
        do {
            read = try OPML.outlines(contentsOf: path)
        } catch {
            if case .unreadable = error { throw error }
            throw CommandFailure(description: "\(path): \(Self.describe(error))", exitCode: ExitCode(for: error))
        }
        let outlines = try usable(read, in: path, output: context.output)
        let importer = FeedImporter(
            library: try context.library(), policy: context.feedFetcherPolicy,
            protection: try context.config().protection)
        let reporter = Told(output: context.output)
        defer {
            context.output.print(
                "Subscribed to \(Formatting.count(reporter.subscribed, "feed")), refreshed \(reporter.refreshed)")
        }
        try importer.run(outlines.map(\.url), reporter: reporter)
        try reporter.failures.conclude(of: outlines.count, output: context.output)
    }

    /// Each failure on a line of its own as it happens (as `Reported.forEach` tells them); what
    /// was recorded, counted.
    private final class Told: ImportReporter {
        let output: Output
        var subscribed = 0
        var refreshed = 0
        var failures = Reported.Failures(noun: "feed", undone: "not imported")

        init(output: Output) { self.output = output }

        func recorded(_ url: String, _ outcome: FeedUpdater.Outcome) {
            failures.reachedAServer = true
            switch outcome {
            case .subscribed: subscribed += 1
            case .unsubscribed: break  // by another podcli meanwhile
            case .refreshed, .unchanged, .audio: refreshed += 1
            }
        }

        func failed(_ url: String, _ error: any Error) {
            failures.add(error, output: output) { "\(url): \(error)" }
        }

        func noted(_ url: String, _ note: String) { output.note("\(url): \(note)") }
    }
}

extension Import {
    /// The outlines podcli can fetch. One whose URL is not http or https (`ftp:`, `data:`) is the
    /// file's mistake, not the command line's: skipped with a note while others are usable, and
    /// exit 65 when none is.
    static func usable(_ outlines: [OPMLOutline], in path: String, output: Output) throws -> [OPMLOutline] {
        let usable = outlines.filter { FeedUpdater.isFetchable($0.url) }
        guard let first = outlines.first(where: { !FeedUpdater.isFetchable($0.url) }) else { return outlines }
        let shown = first.url.count > 80 ? String(first.url.prefix(80)) + "…" : first.url
        guard !usable.isEmpty else {
            throw CommandFailure(
                description: "\(path): no outline has an http or https feed URL (\(shown))", exitCode: .badContent)
        }
        let skipped = outlines.count - usable.count
        output.note(
            "\(path): skipped \(Formatting.count(skipped, "outline")) whose feed URL is not http or https "
                + (skipped == 1 ? "(\(shown))" : "(the first: \(shown))"))
        return usable
    }

    /// The OPML reader shares the feed parser's errors; say them in OPML's terms.
    static func describe(_ error: FeedError) -> String {
        switch error {
        case .empty: return "the file is empty"
        case .notAFeed(let root): return "not an OPML subscription list (the document is <\(root)>)"
        default: return error.description(of: "the OPML file", readAs: "an OPML subscription list")
        }
    }
}

extension Import {
    /// Another app's library: read whole, then recorded in one transaction, then the settings.
    static func importLibrary(_ path: String, in context: Context) throws {
        let foreign: ForeignLibrary
        do {
            foreign = try ForeignLibrary.read(contentsOf: path)
        } catch {
            throw CommandFailure(description: "\(path): \(error)", exitCode: .badContent)
        }
        let config = try context.config()
        let library = try context.library()
        var (summary, recorded) = try LibraryImport(library: library, protection: config.protection).record(foreign)
        if recorded.contains(where: { !$1.settings.isEmpty }) {
            var (file, config) = try Configure.file(in: context)
            summary.settings = LibraryImport.addSettings(
                of: recorded, among: try library.subscriptions(), to: &file, config: config)
            if summary.settings > 0 { try file.write() }
        }
        context.output.print("\(foreign.app.rawValue): \(summary.line)")
    }
}
