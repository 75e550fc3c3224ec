import EpisodeStore
import Playback
import Terminal

/// Bookmarks made while playing (`b`, `podcli bookmark`): recorded on the player's thread, with
/// the library connection the positions are saved with.
extension PlaySession {
    /// Records a bookmark of `episode` at media frame `frame`, with the chapter heard there, and
    /// says so on the display; answers a request waiting on the control socket (`ticket`) with
    /// the bookmark as JSON, or why it was not recorded.
    func recordBookmark(of episode: Episode, at frame: Int, sampleRate: Int, note: String?, ticket: Int?) {
        let seconds = Double(frame) / Double(sampleRate)
        // A chapter that cannot be looked up costs the bookmark its chapter, not the bookmark.
        let chapters = (try? EpisodeChapters.list(for: episode, in: library)) ?? .empty
        let chapter = chapters.index(at: seconds).flatMap { chapters.chapters[$0].title }
        let reply: String
        do {
            let bookmark = BookmarkReport(
                try library.addBookmark(
                    to: episode, positionMilliseconds: frame * 1000 / sampleRate, chapter: chapter, note: note))
            display.note("Bookmark \(bookmark.id) \(bookmark.moment)")
            reply = bookmark.json
        } catch {
            display.warn("warning: the bookmark at \(NowPlayingLine.clock(seconds)) was not recorded: \(error)")
            reply = "error the bookmark was not recorded: \(error)"
        }
        if let ticket { board.bookmarks.answer(ticket, with: reply) }
    }
}
