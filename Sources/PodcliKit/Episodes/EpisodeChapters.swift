import Chapters
import EpisodeStore
import FoundationEssentials

/// The chapters of one episode, from every source podcli reads: the one lookup `show`, `chapters`
/// and the play session use.
public enum EpisodeChapters {
    /// Today the feed's Podlove Simple Chapters, stored with the episode.
    public static func list(for episode: Episode) -> ChapterList {
        let stored = episode.chaptersJSON.flatMap { try? JSONDecoder().decode([Chapter].self, from: Data($0.utf8)) }
        return ChapterList(stored ?? [], length: episode.durationMilliseconds.map { Double($0) / 1000 })
    }
}
