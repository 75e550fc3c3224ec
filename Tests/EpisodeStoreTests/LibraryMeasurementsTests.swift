import Digest
import Foundation
import Testing

@testable import EpisodeStore

/// Schema 8: what a downloaded file measured, recorded once per file as it is, and the length
/// every listing and episode shows.
@Suite struct LibraryMeasurementsTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    /// Records `content` as the episode's downloaded file.
    private func download(_ content: String, of episode: Episode, in library: Library) throws -> EpisodeFile {
        try library.prepareDirectory(for: episode)
        let path = library.directory(of: episode) + "/e.mp3.part"
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        return try library.recordDownload(
            of: episode, partialName: "e.mp3.part", finalName: "e.mp3", size: content.utf8.count,
            sha256: SHA256.ofFile(atPath: path)!, contentType: nil)
    }

    private let measured = EpisodeMeasurement(
        frames: 44_100 * 90 + 441, sampleRate: 44_100, loudnessLUFS: -18.25, truePeakDBTP: -1.5)

    @Test func theMeasuredLengthIsShownInsteadOfTheFeeds() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        // What a feed's itunes:duration of 99:99 becomes.
        try library.database.run("UPDATE episodes SET duration_ms = 6039000 WHERE id = ?", [SQLValue(episode.id)])
        #expect(try library.episode(id: episode.id)?.durationMilliseconds == 6_039_000)
        let file = try download("abc", of: episode, in: library)
        #expect(try library.filesToMeasure(limit: 10) == [file])

        #expect(try library.recordMeasurement(measured, of: file))
        #expect(try library.measurement(of: episode) == measured)
        #expect(try library.episode(id: episode.id)?.durationMilliseconds == 90_010)
        #expect(try library.listing(EpisodeFilter()).first?.durationMilliseconds == 90_010)
        #expect(try library.filesToMeasure(limit: 10).isEmpty, "measured once, not twice")
    }

    @Test func silenceOnlyHasALengthAndNoLoudness() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        let file = try download("abc", of: episode, in: library)
        let silence = EpisodeMeasurement(frames: 48_000, sampleRate: 48_000, loudnessLUFS: nil, truePeakDBTP: nil)
        #expect(try library.recordMeasurement(silence, of: file))
        #expect(try library.measurement(of: episode) == silence)
        #expect(try library.episode(id: episode.id)?.durationMilliseconds == 1_000)
    }

    @Test func aChangedFileIsMeasuredAgainAndAStaleResultIsNotRecorded() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        let first = try download("abc", of: episode, in: library)
        #expect(try library.recordMeasurement(measured, of: first))
        let second = try download("abcd", of: episode, in: library)
        #expect(try library.filesToMeasure(limit: 10) == [second])
        // The first file's loudness is not the new one's (the player would set its gain by it).
        #expect(try library.measurement(of: episode) == nil)
        // A measurement of the file replaced meanwhile is not taken for the new one's.
        #expect(!(try library.recordMeasurement(measured, of: first)))
        let again = EpisodeMeasurement(frames: 44_100, sampleRate: 44_100, loudnessLUFS: -20, truePeakDBTP: -3)
        #expect(try library.recordMeasurement(again, of: second))
        #expect(try library.measurement(of: episode) == again)
        #expect(try library.filesToMeasure(limit: 10).isEmpty)
    }

    @Test func aFileThatCannotBeMeasuredIsNotTriedAgainAndKeepsTheFeedsLength() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        try library.database.run("UPDATE episodes SET duration_ms = 60000 WHERE id = ?", [SQLValue(episode.id)])
        let file = try download("abc", of: episode, in: library)
        #expect(try library.recordMeasurementFailure("cannot decode it", of: file))
        #expect(try library.measurement(of: episode) == nil)
        #expect(try library.filesToMeasure(limit: 10).isEmpty)
        #expect(try library.episode(id: episode.id)?.durationMilliseconds == 60_000)
    }

    @Test func theBacklogIsBoundedNewestFirst() throws {
        let library = try makeLibrary()
        var files: [EpisodeFile] = []
        for index in 0..<3 {
            let episode = try library.createEpisode(
                title: "E\(index)", sourceURL: "http://x/\(index).mp3", protection: .private)
            files.append(try download("abc\(index)", of: episode, in: library))
        }
        #expect(try library.filesToMeasure(limit: 2) == [files[2], files[1]])
    }
}
