import Arguments
import EpisodeStore
import PodcliKit

/// `podcli list [FEED]`: the episodes podcli knows, newest first, one line each, a page at a time.
enum List: Command {
    static let feed = Positional(
        "feed", help: "Only this feed's episodes: its number, URL, or a unique part of its title.", isOptional: true,
        domain: .dynamic(.feed))
    static let search = Option(
        "search", short: "s", valueName: "text",
        help: """
            Only episodes whose title, podcast name, description or a stretch of whose transcript has every \
            word of <text> (or a word beginning with it), best match first (past \(EpisodeFilter.defaultRankedSearchLimit) \
            matches, newest first). Case and accents do not matter. FOUND says where: text, or the time in \
            the transcript to give 'podcli play ID --from'.
            """)
    static let limit = Option(
        "limit", short: "n", valueName: "count", help: "Show at most <count> episodes (default: \(pageSize)).")
    static let offset = Option(
        "offset", valueName: "count", help: "Skip the first <count> episodes: --offset \(pageSize) is the second page.")
    static let all = Flag("all", short: "a", help: "Show every episode that matches, not a page.")
    static let new = Flag("new", help: "Only new episodes (not yet played).")
    static let downloaded = Flag("downloaded", help: "Only downloaded episodes.")
    static let played = Flag("played", help: "Only played episodes.")
    static let starred = Flag("starred", help: "Only starred episodes ('podcli star').")
    static let json = Flag("json", help: "Print the episodes as a JSON array.")

    static let spec = CommandSpec(
        name: "list", abstract: "List episodes, newest first, \(pageSize) at a time.",
        discussion: discussion,
        positionals: [feed], options: [search, limit, offset], flags: [all, new, downloaded, played, starred, json],
        group: .library,
        examples: [
            Example("podcli list --new --downloaded", "Episodes downloaded and not yet played."),
            Example("podcli list -s 'rust async' --all", "Every episode that mentions both words."),
        ])

    static let discussion = """
        Filters combine: FEED, --new, --downloaded, --played, --starred and -s. A page ends with a \
        line on stderr saying how many more episodes match; --offset shows the next page and --all \
        every one (not with --limit). Lines are printed as they are read, so 'list --all | head' \
        stops early.

        STATE: new (new, not downloaded), - (not downloaded), queued, downloading, downloaded, \
        failed, played, deleted. \
        FORMAT: what the downloaded file was found to be, else what the feed says, else the URL's \
        extension (MP3, MP2, M4A, AAC, Opus, Vorbis, FLAC).

        Search (-s TEXT): episodes whose title, podcast name or description has every word, or a \
        word beginning with it, best first (BM25: the title weighs most, then the podcast's name, \
        then the description). Case and accents do not matter, in any script; descriptions are \
        searched as they read, not their HTML; punctuation separates words and FTS syntax means \
        nothing. Transcripts are searched too, in stretches of about 30 s: FOUND says 'text' or the \
        time to give 'play --from'. More than 32 words or 1,000 characters is exit 64. A search \
        matching more than 10,000 episodes is listed newest first instead of ranked \
        (PODCLI_SEARCH_RANK_LIMIT moves the limit).

        --json keys: id, uuid, feed_id, feed, title, state, status, new, played, position, published_at, duration, size, format, url, kept, starred, last_error, found (a search's: texts, transcript_at)
        """

    /// What a page holds unless told otherwise.
    static let pageSize = 50

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let page = try Self.page(arguments)
        let library = try context.library()
        var filter = EpisodeFilter()
        if let reference = arguments[feed] { filter.feedID = try library.feed(matching: reference).id }
        filter.onlyNew = arguments[new]
        filter.onlyDownloaded = arguments[downloaded]
        filter.onlyPlayed = arguments[played]
        filter.onlyStarred = arguments[starred]
        filter.search = arguments[search]
        // For tests and tuning: how many matches are ranked before a search lists newest first.
        if let limit = context.environment["PODCLI_SEARCH_RANK_LIMIT"].flatMap(Int.init), limit >= 0 {
            filter.rankedSearchLimit = limit
        }
        let order = try library.searchOrder(filter)

        var shown = 0
        if arguments[json] {
            var out = StdoutBuffer(output: context.output, always: true)
            out.json("[\n")
            try library.forEachListing(filter, page: page) { listing in
                // One document per episode, laid out as JSONEncoder lays out an array of them.
                let object = (try? EpisodeReport.json(EpisodeLine(listing))) ?? "{}"
                out.json((shown == 0 ? "" : ",\n") + "  " + object.replacing("\n", with: "\n  "))
                shown += 1
                return true
            }
            out.json("\n]\n")
            out.flush()
        } else {
            var out = StdoutBuffer(output: context.output)
            var table = ListingTable(acrossFeeds: filter.feedID == nil)
            var failure: Error?
            try library.forEachListing(filter, page: page) { listing in
                do {
                    try table.add(listing, bounds: { try bounds(of: library) }) { out.print($0) }
                } catch {
                    failure = error
                    return false
                }
                shown += 1
                return true
            }
            if let failure { throw failure }
            table.finish { out.print($0) }
            out.flush()
        }
        if order == .newest {
            newestFirstNote(ranked: filter.rankedSearchLimit, shown: shown, page: page, output: context.output)
        } else {
            try note(shown: shown, page: page, filter: filter, library: library, output: context.output)
        }
    }

    /// The lines on stderr after a search listed newest first: why, and how to see more. Their
    /// number is not counted (that would read every match, which listing newest first avoids).
    private static func newestFirstNote(ranked limit: Int, shown: Int, page: ListingPage, output: Output) {
        output.note(
            "More than \(Formatting.count(limit, "episode")) match, newest first: add words to rank them.")
        guard let pageLimit = page.limit, shown == pageLimit else { return }
        output.note(
            "More may match (add --offset \(page.offset + shown) for the next \(pageLimit), --all for every one)")
    }

    /// The page the options ask for.
    /// - Throws: `UsageError` for a count that is not a number, or `--all` with `--limit`.
    private static func page(_ arguments: ParsedArguments) throws(UsageError) -> ListingPage {
        let count = try arguments.value(limit, as: "a positive number") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let skip = try arguments.value(offset, as: "a number, 0 or more") { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
        if arguments[all] && count != nil { throw .conflicting("--all and --limit cannot be used together.") }
        return ListingPage(offset: skip ?? 0, limit: arguments[all] ? nil : count ?? pageSize)
    }

    /// The line on stderr after the listing: what was not shown and how to see it, or why
    /// nothing was.
    private static func note(
        shown: Int, page: ListingPage, filter: EpisodeFilter, library: Library, output: Output
    ) throws {
        if shown == 0 && page.offset == 0 {
            output.note(
                filter.isFiltered
                    ? "No episodes match."
                    : "No episodes yet: 'podcli fetch URL' subscribes to a feed or downloads one.")
            return
        }
        guard let limit = page.limit, shown == limit || shown == 0 else { return }
        let total = try library.count(filter)
        let more = total - page.offset - shown
        if shown == 0 {
            output.note("Nothing past --offset \(page.offset): \(Formatting.count(total, "episode")) in all.")
        } else if more > 0 {
            let next = page.offset + shown
            output.note(
                "\(Formatting.count(more, "more episode")) "
                    + "(add --offset \(next) for the next \(min(more, limit)), --all for every one)")
        }
    }

    /// What the rows after the first ones may need room for.
    private static func bounds(of library: Library) throws -> ListingTable.Bounds {
        ListingTable.Bounds(
            largestID: try library.largestEpisodeID(),
            longestFeedTitle: try library.subscriptions().map(\.title.count).max() ?? 0)
    }
}
