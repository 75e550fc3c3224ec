import Arguments
import EpisodeStore
import PodcliKit

/// `podcli unsubscribe FEED`: ends a subscription, keeping downloaded episodes unless asked.
enum Unsubscribe: Command {
    static let feed = Positional(
        "feed", help: "The feed's number, URL, or a unique part of its title.", domain: .dynamic(.feed))
    static let deleteFiles = Flag("delete-files", help: "Also remove the feed's downloaded episodes and their files.")
    static let keepBookmarks = Flag(
        "keep-bookmarks", help: "Keep the bookmarks of the feed's episodes (they are deleted with the feed).")

    static let spec = CommandSpec(
        name: "unsubscribe", abstract: "Stop following a feed.",
        discussion: discussion,
        positionals: [feed], flags: [deleteFiles, keepBookmarks], group: .library)

    static let discussion = """
        Episodes that were downloaded stay (as episodes of their own, with their files) unless \
        --delete-files is given; the others are forgotten. The episodes' bookmarks are deleted \
        unless --keep-bookmarks is given: then a forgotten episode's bookmarks keep its title, its \
        feed's title and its audio URL, and play from that URL. Feed numbers are never reused.

        Exit status: 66 when FEED names no feed (or several), 75 when --delete-files finds another \
        podcli downloading one of its episodes (then nothing changes).
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let feed = try library.feed(matching: arguments[Self.feed]!)
        let kept = try library.unsubscribe(
            feed, deleteFiles: arguments[deleteFiles], keepBookmarks: arguments[keepBookmarks])
        context.output.print(
            "Unsubscribed from #\(feed.id) \(feed.title)"
                + (kept > 0 ? "; kept \(Formatting.count(kept, "episode")) with files" : ""))
    }
}
