import EpisodeStore
import PodcliKit

/// `list`'s table, written while the episodes are still being read.
///
/// The first `sampleSize` episodes are held back to size the columns, as `Table` sizes a table
/// from all its rows, so a listing that fits in the sample looks as it always did. Past the sample,
/// rows are written as they come, with the columns a later row may need widened from what the
/// library says (its largest episode number, its longest feed title, the longest state); a cell
/// wider still pushes the rest of its line right. No column is wider than `Table`'s limits.
struct ListingTable {
    /// Whether to show a FEED column (not when listing one feed).
    let acrossFeeds: Bool
    let sampleSize: Int
    private var sample: [EpisodeListing] = []
    private var layout: (showFeed: Bool, showFound: Bool, widths: [Int])?

    init(acrossFeeds: Bool, sampleSize: Int = 1000) {
        self.acrossFeeds = acrossFeeds
        self.sampleSize = sampleSize
    }

    /// What the library says about the rows after the sample.
    struct Bounds {
        var largestID: Int
        var longestFeedTitle: Int
    }

    /// Adds an episode; `emit` is handed the lines ready to be written (none while sampling).
    /// `bounds` is asked once, when the sample fills.
    mutating func add(_ listing: EpisodeListing, bounds: () throws -> Bounds, emit: (String) -> Void) rethrows {
        if let layout {
            emit(
                Table.line(
                    Self.row(listing, showFeed: layout.showFeed, showFound: layout.showFound), widths: layout.widths))
            return
        }
        sample.append(listing)
        if sample.count == sampleSize { try writeSample(bounds: bounds(), emit: emit) }
    }

    /// Writes what is still held back: all of a listing shorter than the sample.
    mutating func finish(emit: (String) -> Void) {
        if layout == nil && !sample.isEmpty { writeSample(bounds: nil, emit: emit) }
    }

    private mutating func writeSample(bounds: Bounds?, emit: (String) -> Void) {
        let showFeed =
            acrossFeeds && ((bounds?.longestFeedTitle ?? 0) > 0 || sample.contains { $0.feedTitle != nil })
        // A search says where it found each episode: "text", a time in the transcript, or both.
        let showFound = sample.contains { $0.searchHit != nil }
        let header =
            ["ID", "DATE", "STATE", "LENGTH", "SIZE", "FORMAT"] + (showFeed ? ["FEED"] : [])
            + (showFound ? ["FOUND"] : []) + ["TITLE"]
        let rows = sample.map { Self.row($0, showFeed: showFeed, showFound: showFound) }
        var widths = Table.widths(of: [header] + rows)
        if let bounds {
            widths[0] = max(widths[0], "\(bounds.largestID)".count)
            widths[2] = max(widths[2], Self.longestStatus)
            widths[5] = max(widths[5], Self.longestFormat)
            if showFeed { widths[6] = max(widths[6], bounds.longestFeedTitle) }
            if showFound { widths[showFeed ? 7 : 6] = max(widths[showFeed ? 7 : 6], Self.longestFound) }
        }
        layout = (showFeed, showFound, widths)
        emit(Table.line(header, widths: widths))
        for row in rows { emit(Table.line(row, widths: widths)) }
        sample = []
    }

    /// "Vorbis", the longest name the FORMAT column shows.
    private static let longestFormat = EpisodeFormat.longestName

    /// "downloading", the longest word the STATE column shows.
    private static let longestStatus = EpisodeState.allCases.map(\.rawValue.count).max() ?? 0

    /// "text, 1:00:00": found in the texts and an hour into the transcript.
    private static let longestFound = "text, 1:00:00".count

    private static func row(_ listing: EpisodeListing, showFeed: Bool, showFound: Bool) -> [String] {
        let line = EpisodeLine(listing)
        var row = [
            "\(line.id)", Formatting.day(listing.sortDate), line.status,
            line.duration.map { Formatting.duration(seconds: Int($0)) } ?? "-",
            line.size.map(Formatting.bytes) ?? "-", line.format ?? "-",
        ]
        if showFeed { row.append(line.feed ?? "-") }
        if showFound { row.append(line.found?.summary ?? "-") }
        let failed = listing.state == .failed ? line.lastError : nil
        row.append(line.title + (failed.map { "  (download failed: \($0))" } ?? ""))
        return row
    }
}
