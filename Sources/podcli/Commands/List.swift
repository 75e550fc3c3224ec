import Arguments
import EpisodeStore

/// `podcli list [FEED]`: the episodes podcli knows, newest first, one line each.
enum List: Command {
    static let feed = Positional(
        "feed", help: "Only this feed's episodes: its number, URL, or a unique part of its title.", isOptional: true)
    static let search = Option(
        "search", short: "s", valueName: "text", help: "Only episodes whose title or description contains <text>.")
    static let new = Flag("new", help: "Only new episodes (not yet played).")
    static let downloaded = Flag("downloaded", help: "Only downloaded episodes.")
    static let played = Flag("played", help: "Only played episodes.")
    static let json = Flag("json", help: "Print the episodes as a JSON array.")

    static let spec = CommandSpec(
        name: "list", abstract: "List episodes, newest first.", positionals: [feed], options: [search],
        flags: [new, downloaded, played, json])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        var filter = EpisodeFilter()
        if let reference = arguments[feed] { filter.feedID = try library.feed(matching: reference).id }
        filter.onlyNew = arguments[new]
        filter.onlyDownloaded = arguments[downloaded]
        filter.onlyPlayed = arguments[played]
        filter.search = arguments[search]
        let listings = try library.listing(filter)
        let hints = try library.mediaTypeHints(of: listings.map(\.episode.id))
        let lines = listings.map { EpisodeLine($0, format: EpisodeFormat.name(hints[$0.episode.id])) }
        if arguments[json] {
            context.output.print(try EpisodeReport.json(lines), always: true)
            return
        }
        guard !listings.isEmpty else {
            let filtered =
                filter.feedID != nil || filter.onlyNew || filter.onlyDownloaded || filter.onlyPlayed
                || filter.search != nil
            context.output.note(
                filtered
                    ? "No episodes match."
                    : "No episodes yet: 'podcli fetch URL' subscribes to a feed or downloads one.")
            return
        }
        let showFeed = filter.feedID == nil && listings.contains { $0.feedTitle != nil }
        let rows = zip(listings, lines).map { listing, line in
            var row = [
                "\(line.id)", Formatting.day(listing.episode.sortDate), line.status,
                line.duration.map { Formatting.duration(seconds: Int($0)) } ?? "-",
                line.size.map(Formatting.bytes) ?? "-", line.format ?? "-",
            ]
            if showFeed { row.append(line.feed ?? "-") }
            row.append(line.title + (line.error.map { "  (download failed: \($0))" } ?? ""))
            return row
        }
        let header = ["ID", "DATE", "STATE", "LENGTH", "SIZE", "FORMAT"] + (showFeed ? ["FEED"] : []) + ["TITLE"]
        for line in Table(header: header, rows: rows).lines {
            context.output.print(line)
        }
    }
}

/// One episode of `list --json`: what the table shows, with numbers left as numbers.
struct EpisodeLine: Encodable {
    let id: Int
    let uuid: String
    let feedID: Int?
    let feed: String?
    let title: String
    /// The download state ("new" means nothing downloaded yet).
    let state: String
    /// What the STATE column shows: played, downloaded, new (listed and unheard), ...
    let status: String
    let new: Bool
    let played: Bool
    /// Seconds into the episode.
    let position: Double
    let publishedAt: Int?
    let duration: Double?
    let size: Int?
    /// The audio format: MP3, M4A, AAC, Opus, Vorbis, FLAC (see `EpisodeFormat`).
    let format: String?
    let url: String
    /// Kept from sync's retention (`podcli keep`).
    let kept: Bool
    /// Why the last download failed.
    let error: String?

    enum CodingKeys: String, CodingKey {
        case id, uuid, feed, title, state, status, new, played, position, duration, size, format, url, kept, error
        case feedID = "feed_id"
        case publishedAt = "published_at"
    }

    init(_ listing: EpisodeListing, format: String?) {
        let episode = listing.episode
        self.format = format
        id = episode.id
        uuid = episode.uuid
        feedID = episode.feedID
        feed = listing.feedTitle
        title = episode.title
        state = episode.state.rawValue
        new = episode.isNew && !listing.played
        played = listing.played
        position = Double(listing.positionMilliseconds) / 1000
        publishedAt = episode.publishedAt
        duration = episode.durationMilliseconds.map { Double($0) / 1000 }
        size = listing.fileSize
        url = episode.sourceURL
        kept = episode.isKept
        error = episode.state == .failed ? episode.lastError : nil
        if episode.removedAt != nil {
            status = "deleted"
        } else if played {
            status = "played"
        } else if episode.state != .new {
            status = episode.state.rawValue
        } else {
            status = new ? "new" : "-"
        }
    }
}

/// Left-aligned columns separated by two spaces; the last column is not padded.
struct Table {
    let header: [String]
    let rows: [[String]]

    var lines: [String] {
        let all = [header] + rows
        let widths = (0..<header.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : Formatting.padded(cell, to: widths[column])
            }.joined(separator: "  ")
        }
    }
}
