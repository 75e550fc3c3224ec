import Testing

@testable import EpisodeStore

/// The chapters a listener skips, kept per episode by each chapter's start.
@Suite struct LibraryChapterSkipsTests {
    let directory = TestDirectory()

    @Test func skippedChaptersAreKeptPerEpisodeByTheirStart() throws {
        let library = try Library(directory: directory.path + "/data")
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        let other = try library.createEpisode(title: "F", sourceURL: "http://x/f.mp3", protection: .private)
        #expect(try library.skippedChapterStarts(of: episode).isEmpty)

        try library.setChaptersSkipped(true, starts: [0, 250_500, 61_000], of: episode)
        // Skipping one twice keeps it once.
        try library.setChaptersSkipped(true, starts: [61_000], of: episode)
        try library.setChaptersSkipped(true, starts: [5_000], of: other)
        try library.setChaptersSkipped(false, starts: [0, 999], of: episode)

        // What another connection reads: it is in the file.
        let reopened = try Library(directory: directory.path + "/data")
        #expect(try reopened.skippedChapterStarts(of: episode) == [61_000, 250_500])
        #expect(try reopened.skippedChapterStarts(of: other) == [5_000])

        // Gone with the episode.
        try library.database.run("DELETE FROM episodes WHERE id = ?", [SQLValue(episode.id)])
        #expect(try library.database.rows("SELECT count(*) FROM chapter_skips").first?.int(0) == 1)
    }
}
