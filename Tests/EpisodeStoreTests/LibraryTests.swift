import Digest
import Foundation
import Synchronization
import Testing

@testable import EpisodeStore

@Suite struct LibraryTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    /// Writes `content` as the episode's partial file, as a finished download leaves it.
    private func writePartial(_ content: String, named name: String, for episode: Episode, in library: Library) throws
        -> (size: Int, sha256: String)
    {
        try library.prepareDirectory(for: episode)
        let path = library.directory(of: episode) + "/" + name
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        return (content.utf8.count, SHA256.ofFile(atPath: path)!)
    }

    private func mode(_ path: String) -> UInt32 {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int).map { UInt32($0!) } ?? 0
    }

    /// Every date the library writes is its clock's: an episode made, downloaded, played,
    /// bookmarked and removed, its download attempt, and a feed subscribed to and failing.
    @Test func everyDateWrittenIsTheLibrarysClock() throws {
        let clock = TestClock(1_000_000_000)
        let library = try Library(directory: directory.path + "/data", clock: clock.reading)
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        #expect(episode.createdAt == 1_000_000_000)
        clock.now += 10
        let attempt = try library.beginAttempt(for: episode, url: "http://x/e.mp3")
        clock.now += 10
        try library.finishAttempt(attempt, httpStatus: 200, bytes: 3, error: nil)
        let attempts = try library.attempts(of: episode)
        #expect(attempts.map { [$0.startedAt, $0.finishedAt] } == [[1_000_000_010, 1_000_000_020]])
        let (size, digest) = try writePartial("abc", named: "e.mp3.part", for: episode, in: library)
        let file = try library.recordDownload(
            of: episode, partialName: "e.mp3.part", finalName: "e.mp3", size: size, sha256: digest, contentType: nil)
        #expect(file.recordedAt == 1_000_000_020)
        #expect(try library.episode(id: episode.id)?.downloadedAt == 1_000_000_020)
        clock.now += 10
        try library.savePlayback(
            PlaybackState(positionMilliseconds: 5_000, played: false), of: episode, listened: ListeningTime())
        #expect(try library.database.rows("SELECT updated_at FROM playback_state")[0].int(0) == 1_000_000_030)
        clock.now += 10
        let bookmark = try library.addBookmark(to: episode, positionMilliseconds: 1_000, chapter: nil, note: nil)
        #expect(bookmark.createdAt == 1_000_000_040)
        clock.now += 10
        try library.removeFiles(of: episode)
        #expect(try library.episode(id: episode.id)?.removedAt == 1_000_000_050)

        let (feed, _) = try library.subscribe(
            url: "https://example.com/feed.xml", metadata: FeedMetadata(title: "F"), episodes: [], etag: nil,
            lastModified: nil, protection: .private)
        #expect([feed.subscribedAt, feed.checkedAt] == [1_000_000_050, 1_000_000_050])
        for _ in 1...3 { try library.record(.failed("down"), for: feed) }
        #expect(try library.feed(id: feed.id)?.retryAt == 1_000_000_050 + Library.backoff(afterFailures: 3)!)
    }

    @Test func createsTheDataDirectoryPrivateWithTheDatabaseInIt() throws {
        let library = try makeLibrary()
        #expect(FileManager.default.fileExists(atPath: directory.path + "/data/podcli.db"))
        #expect(mode(directory.path + "/data") == 0o700)
        #expect(library.episodesDirectory == directory.path + "/data/episodes")
    }

    @Test func threadsOpeningANewLibraryTogetherAllSucceed() throws {
        // Each thread has its own connection, as each podcli process has: all of them create the
        // directories, switch the new file to WAL and migrate it at once. Rounds, since it is a race.
        for round in 0..<25 {
            let path = directory.path + "/race-\(round)"
            let failures = Mutex<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for _ in 0..<8 {
                done.enter()
                Thread {
                    start.wait()
                    do { _ = try Library(directory: path) } catch { failures.withLock { $0.append("\(error)") } }
                    done.leave()
                }.start()
            }
            for _ in 0..<8 { start.signal() }
            done.wait()
            #expect(failures.withLock { $0 } == [], "round \(round)")
        }
    }

    @Test func findsEpisodesByNumberOrUniqueUUIDPrefix() throws {
        let library = try makeLibrary()
        let first = try library.createEpisode(title: "One", sourceURL: "http://x/1.mp3", protection: .private)
        let second = try library.createEpisode(title: "Two", sourceURL: "http://x/2.mp3", protection: .open)
        #expect(try library.episode(matching: "\(second.id)") == second)
        // Version 7 UUIDs made in the same millisecond share their first 13 characters.
        #expect(try library.episode(matching: String(first.uuid.prefix(28)).uppercased()) == first)
        #expect(throws: StoreError.episodeNotFound("999")) { try library.episode(matching: "999") }
        #expect(throws: StoreError.episodeNotFound("zz")) { try library.episode(matching: "zz") }
        let common = String(zip(first.uuid, second.uuid).prefix { $0 == $1 }.map(\.0))
        // An all-digit reference is an episode number first, so only a prefix with a letter is ambiguous.
        if !common.isEmpty, Int(common) == nil {
            #expect(throws: StoreError.ambiguousEpisode(common, matches: 2)) { try library.episode(matching: common) }
        }
    }

    @Test func recordingMovesThePartialFileIntoPlaceAndAppliesProtection() throws {
        let library = try makeLibrary()
        for protection in Protection.allCases {
            let episode = try library.createEpisode(
                title: "E", sourceURL: "http://x/\(protection).mp3", protection: protection)
            let (size, digest) = try writePartial("audio bytes", named: "e.mp3.part", for: episode, in: library)
            let file = try library.recordDownload(
                of: episode, partialName: "e.mp3.part", finalName: "e.mp3", size: size, sha256: digest,
                contentType: "audio/mpeg")
            #expect(file.relativePath == "episodes/\(episode.uuid)/e.mp3")
            #expect(file.mode == UInt32(protection.fileMode))
            #expect(file.ownerUID == getuid())
            #expect(mode(library.path(of: file)) == UInt32(protection.fileMode))
            #expect(mode(library.directory(of: episode)) == UInt32(protection.directoryMode))
            #expect(!FileManager.default.fileExists(atPath: library.directory(of: episode) + "/e.mp3.part"))
            #expect(try library.episode(id: episode.id)?.state == .downloaded)
            #expect(library.check(file, of: episode).isEmpty)
        }
    }

    @Test func aFailedRecordingLeavesThePartialFileUnrecorded() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        let (size, _) = try writePartial("abc", named: "e.mp3.part", for: episode, in: library)
        // A checksum the schema refuses makes the INSERT fail inside the transaction.
        #expect(throws: StoreError.self) {
            try library.recordDownload(
                of: episode, partialName: "e.mp3.part", finalName: "e.mp3", size: size, sha256: "short",
                contentType: nil)
        }
        #expect(FileManager.default.fileExists(atPath: library.directory(of: episode) + "/e.mp3.part"))
        #expect(!FileManager.default.fileExists(atPath: library.directory(of: episode) + "/e.mp3"))
        #expect(try library.files(of: episode).isEmpty)
        #expect(try library.episode(id: episode.id)?.state == .new)
    }

    @Test func anUnrecordedCompleteFileBecomesPartialAgain() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        _ = try writePartial("abc", named: "e.mp3", for: episode, in: library)
        #expect(try library.partialFile(of: episode) == "e.mp3.part")
        #expect(FileManager.default.fileExists(atPath: library.directory(of: episode) + "/e.mp3.part"))
    }

    /// The artwork `play` caches beside an episode that is still downloading is no download.
    @Test func theArtworkIsNotTakenForAnOrphanDownload() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        _ = try writePartial("jpeg", named: Library.artworkName, for: episode, in: library)
        #expect(try library.partialFile(of: episode) == nil)
        #expect(FileManager.default.fileExists(atPath: library.artworkPath(of: episode)))
    }

    /// Each save of the position adds the silence skipped since the last one; marking the episode
    /// played, or a save with none skipped, keeps the total.
    @Test func theSilenceSkippedAddsUpOverSaves() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        #expect(try library.silenceSkipped(in: episode) == 0)
        for (position, skipped) in [(5_000, 1_500), (9_000, 2_250), (9_500, 0)] {
            let state = PlaybackState(positionMilliseconds: position, played: false)
            try library.setPlaybackState(state, of: episode, silenceSkipped: skipped)
        }
        try library.markPlayed(episode)
        #expect(try library.silenceSkipped(in: episode) == 3_750)
        #expect(try library.playbackState(of: episode) == PlaybackState(positionMilliseconds: 0, played: true))
    }

    @Test func removeDeletesRowsAndFilesTogether() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        let (size, digest) = try writePartial("abc", named: "e.mp3.part", for: episode, in: library)
        _ = try library.recordDownload(
            of: episode, partialName: "e.mp3.part", finalName: "e.mp3", size: size, sha256: digest, contentType: nil)
        _ = try library.beginAttempt(for: episode, url: episode.sourceURL)
        try library.setPlaybackState(PlaybackState(positionMilliseconds: 5000, played: false), of: episode)
        try library.remove(episode)
        #expect(!FileManager.default.fileExists(atPath: library.directory(of: episode)))
        #expect(try library.episode(id: episode.id) == nil)
        for table in ["files", "download_attempts", "playback_state"] {
            #expect(try library.database.rows("SELECT count(*) FROM \(table)")[0].int(0) == 0)
        }
    }

    /// An episode recorded with its file, and the trash name its directory takes in a removal.
    private func recordedEpisode(in library: Library) throws -> (Episode, EpisodeFile, trash: String) {
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        let (size, digest) = try writePartial("abc", named: "e.mp3.part", for: episode, in: library)
        let file = try library.recordDownload(
            of: episode, partialName: "e.mp3.part", finalName: "e.mp3", size: size, sha256: digest, contentType: nil)
        return (episode, file, library.episodesDirectory + "/" + Library.trashPrefix + episode.uuid)
    }

    @Test func aRemovalInterruptedAfterCommitIsFinishedOnNextOpen() throws {
        let library = try makeLibrary()
        let (removed, _, removedTrash) = try recordedEpisode(in: library)
        let (deleted, _, deletedTrash) = try recordedEpisode(in: library)
        let unknownTrash = library.episodesDirectory + "/" + Library.trashPrefix + "0000"
        // What a podcli killed between the commit and the deletion leaves: rows changed, trash kept.
        try FileManager.default.moveItem(atPath: library.directory(of: removed), toPath: removedTrash)
        try library.removeFiles(of: removed)
        try FileManager.default.moveItem(atPath: library.directory(of: deleted), toPath: deletedTrash)
        try library.remove(deleted)
        try FileManager.default.createDirectory(atPath: unknownTrash, withIntermediateDirectories: true)
        _ = try makeLibrary()
        for trash in [removedTrash, deletedTrash, unknownTrash] {
            #expect(!FileManager.default.fileExists(atPath: trash), "\(trash)")
        }
        #expect(!FileManager.default.fileExists(atPath: library.directory(of: removed)))
    }

    @Test func aRemovalInterruptedBeforeCommitPutsTheFilesBackOnNextOpen() throws {
        let library = try makeLibrary()
        let (episode, file, trash) = try recordedEpisode(in: library)
        // What a podcli killed between the rename and the commit leaves: the rows as they were.
        try FileManager.default.moveItem(atPath: library.directory(of: episode), toPath: trash)
        let reopened = try makeLibrary()
        #expect(!FileManager.default.fileExists(atPath: trash))
        #expect(try Data(contentsOf: URL(fileURLWithPath: reopened.path(of: file))) == Data("abc".utf8))
        #expect(try reopened.files(of: episode) == [file])
        #expect(reopened.check(file, of: episode).isEmpty)
    }

    /// With no lock file to be had (here `playing` is a file, not a directory; ENOSPC or EACCES
    /// do the same), a removal still under way cannot be told from a killed one: the sweep
    /// leaves the trash alone rather than put a directory back under the remover.
    @Test func theSweepLeavesTheTrashAloneWithoutARealLock() throws {
        let library = try makeLibrary()
        let (episode, file, trash) = try recordedEpisode(in: library)
        try FileManager.default.moveItem(atPath: library.directory(of: episode), toPath: trash)
        let playing = library.directory + "/playing"
        try? FileManager.default.removeItem(atPath: playing)
        try Data().write(to: URL(fileURLWithPath: playing))
        _ = try makeLibrary()
        #expect(FileManager.default.fileExists(atPath: trash))
        #expect(!FileManager.default.fileExists(atPath: library.directory(of: episode)))

        // Once a lock can be taken, the next open puts it back.
        try FileManager.default.removeItem(atPath: playing)
        let reopened = try makeLibrary()
        #expect(!FileManager.default.fileExists(atPath: trash))
        #expect(try Data(contentsOf: URL(fileURLWithPath: reopened.path(of: file))) == Data("abc".utf8))
    }

    /// A killed removal's files go back even when the episode's directory was made again since
    /// (the trash stayed, looked at on every open): what the new directory lacks is moved in.
    @Test func aRemovalInterruptedBeforeCommitMergesIntoADirectoryMadeSince() throws {
        let library = try makeLibrary()
        let (episode, file, trash) = try recordedEpisode(in: library)
        try FileManager.default.moveItem(atPath: library.directory(of: episode), toPath: trash)
        let artwork = library.artworkPath(of: episode)
        _ = try library.prepareDirectory(for: episode)
        try Data("jpeg".utf8).write(to: URL(fileURLWithPath: artwork))
        let reopened = try makeLibrary()
        #expect(!FileManager.default.fileExists(atPath: trash))
        #expect(try Data(contentsOf: URL(fileURLWithPath: reopened.path(of: file))) == Data("abc".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: artwork)) == Data("jpeg".utf8))
        #expect(reopened.check(file, of: episode).isEmpty)
    }

    @Test func checkReportsEachDriftAndRepairRestoresModes() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        let (size, digest) = try writePartial("original", named: "e.mp3.part", for: episode, in: library)
        let file = try library.recordDownload(
            of: episode, partialName: "e.mp3.part", finalName: "e.mp3", size: size, sha256: digest, contentType: nil)
        let path = library.path(of: file)

        chmod(path, 0o644)
        chmod(library.directory(of: episode), 0o755)
        let drifts = library.check(file, of: episode)
        #expect(drifts == [.directoryMode(expected: 0o700, actual: 0o755), .mode(expected: 0o600, actual: 0o644)])
        #expect(library.repairAttributes(file, of: episode, drifts: drifts).isEmpty)
        #expect(library.check(file, of: episode).isEmpty)

        try Data("ORIGINAL".utf8).write(to: URL(fileURLWithPath: path))  // same size, other bytes
        chmod(path, 0o600)
        let corrupt = library.check(file, of: episode)
        #expect(corrupt.count == 1)
        #expect(corrupt.first?.needsDownload == true)
        if case .checksum = corrupt.first {} else { Issue.record("expected a checksum drift, got \(corrupt)") }

        try Data("longer than before".utf8).write(to: URL(fileURLWithPath: path))
        #expect(library.check(file, of: episode) == [.size(expected: 8, actual: 18)])

        try FileManager.default.removeItem(atPath: path)
        #expect(library.check(file, of: episode) == [.missing])
    }

    @Test func anEpisodeLockIsExclusiveBetweenHolders() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "E", sourceURL: "http://x/e.mp3", protection: .private)
        var lock: EpisodeLock? = try library.lock(episode)
        #expect(throws: StoreError.self) { try library.lock(episode) }
        lock = nil
        _ = lock
        #expect(throws: Never.self) { try library.lock(episode) }
    }
}

@Suite struct EpisodeUUIDTests {
    @Test func isAVersion7UUIDThatSortsByTime() {
        let earlier = EpisodeUUID.text(of: EpisodeUUID.makeBytes(at: Date(timeIntervalSince1970: 1_700_000_000)))
        let later = EpisodeUUID.text(of: EpisodeUUID.makeBytes(at: Date(timeIntervalSince1970: 1_700_000_000.002)))
        #expect(UUID(uuidString: earlier) != nil)
        #expect(earlier.count == 36 && earlier == earlier.lowercased())
        #expect(Array(earlier)[14] == "7")
        #expect("89ab".contains(Array(earlier)[19]))
        // 1_700_000_000_000 ms = 0x18bcfe56800
        #expect(earlier.hasPrefix("018bcfe5-6800-7"))
        #expect(earlier < later)
        #expect(EpisodeUUID.makeBytes() != EpisodeUUID.makeBytes())
    }

    @Test func isStoredAsItsSixteenBytesAndReadBackAsItWas() throws {
        let text = EpisodeUUID.text(of: EpisodeUUID.makeBytes())
        let bytes = try #require(EpisodeUUID.bytes(of: text))
        #expect(bytes.count == 16)
        #expect(EpisodeUUID.text(of: bytes) == text)
        #expect(EpisodeUUID.bytes(of: text.uppercased()) == bytes)
        for notAUUID in [
            "u-7", String(text.dropLast()), text.replacingOccurrences(of: "-", with: ""), "x" + text.dropFirst(),
        ] {
            #expect(EpisodeUUID.bytes(of: notAUUID) == nil, "\(notAUUID)")
        }
    }

    @Test func aPrefixIsARangeOfTheStoredBytes() throws {
        let range = try #require(EpisodeUUID.range(ofPrefix: "018B-c"))
        #expect(range.lowest == .blob([0x01, 0x8b, 0xc0] + Array(repeating: 0, count: 13)))
        #expect(range.highest == .blob([0x01, 0x8b, 0xcf] + Array(repeating: 0xff, count: 13)))
        #expect(EpisodeUUID.range(ofPrefix: "") == nil)
        #expect(EpisodeUUID.range(ofPrefix: "01g") == nil)
        #expect(EpisodeUUID.range(ofPrefix: String(repeating: "a", count: 33)) == nil)
    }
}
