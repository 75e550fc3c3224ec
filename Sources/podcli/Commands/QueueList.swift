import Arguments
import EpisodeStore
import PodcliKit

/// `podcli queue ls`: the queued episodes in play order, one line each.
enum QueueList: Command {
    static let json = Flag("json", help: "Print the queued episodes as a JSON array, in play order.")

    static let spec = CommandSpec(name: "ls", abstract: "List the queue in play order.", flags: [json])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let listings = try context.library().queueListing()
        if arguments[json] {
            context.output.json(try EpisodeReport.json(listings.map(EpisodeLine.init)))
            return
        }
        guard !listings.isEmpty else {
            context.output.print("The queue is empty.")
            return
        }
        let showFeed = listings.contains { $0.feedTitle != nil }
        let rows = listings.map { listing in
            var row = [
                "\(listing.id)", state(of: listing),
                listing.durationMilliseconds.map { Formatting.duration(seconds: $0 / 1000) } ?? "-",
            ]
            if showFeed { row.append(listing.feedTitle ?? "-") }
            row.append(listing.title)
            return row
        }
        let header = ["ID", "STATE", "LENGTH"] + (showFeed ? ["FEED"] : []) + ["TITLE"]
        for line in Table(header: header, rows: rows).lines {
            context.output.print(line)
        }
    }

    /// Whether the episode can be played now: a queued episode need not be downloaded yet.
    private static func state(of episode: EpisodeListing) -> String {
        switch episode.state {
        case .new, .queued: "not downloaded"
        case .downloading, .downloaded, .failed: episode.state.rawValue
        }
    }
}
