import Downloads
import Foundation
import Synchronization
import TestSupport
import Testing
import Threads

@testable import EpisodeStore
@testable import PodcliKit

/// How a fetch that does not finish is recorded: the episode's own failure counts towards its
/// backoff; the disk's, or a stop asked for, does not, and what arrived stays to be resumed.
extension EpisodeFetcherTests {
    /// The episode's failures in a row, and when sync may try it again (nil: at once).
    static func standing(of episode: Episode, in t: TestLibrary) throws -> (failures: Int, retryAt: Int?) {
        let row = try #require(
            try t.library.database.rows(
                "SELECT failures, retry_at FROM episodes WHERE id = ?", [.integer(Int64(episode.id))]
            ).first)
        return (Int(row.int(0) ?? 0), row.int(1).map(Int.init))
    }

    @Test func aStoppedDownloadEndsAtOnceIsNoFailureAndKeepsWhatArrived() throws {
        let t = try TestLibrary()
        let data = AudioBytes.make(600_000)
        // Thirty seconds at this pace, were it not stopped.
        let url = try t.serve("slow.mp3", data) + "?slow=20000"
        let episode = try Self.episode(url, in: t)
        let stop = StopEvent()
        let received = Mutex(0)
        let outcome = Mutex<String?>(nil)
        let thread = Thread { [directory = t.directory] in
            do {
                var fetcher = Self.fetcher(try Library(directory: directory), stop: stop)
                fetcher.onEvent = { event in
                    if case .progress(let bytes, _) = event { received.withLock { $0 = bytes } }
                }
                _ = try fetcher.fetch(episode)
                outcome.withLock { $0 = "finished" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }
        thread.start()
        #expect(waitUntil(timeout: 20) { received.withLock { $0 } >= 40_000 })
        stop.signal()
        #expect(waitUntil(timeout: 10) { outcome.withLock { $0 } != nil }, "the transfer did not stop")
        #expect(outcome.withLock { $0 } == "\(DownloadError.stopped(url: url))")

        // Nothing downloads it now: `new` again, not `downloading`, and not a failure.
        let stopped = try #require(try t.library.episode(id: episode.id))
        #expect(stopped.state == .new && stopped.lastError == "\(DownloadError.stopped(url: url))")
        #expect(try Self.standing(of: episode, in: t) == (0, nil))
        let kept = try #require(try t.partialFiles()["episode"])
        #expect(kept >= 40_000 && kept < data.count)

        // The next fetch asks for the rest only.
        #expect(try Self.fetcher(t.library).fetch(stopped).size == data.count)
        #expect(try t.recordedBytes(of: stopped) == data)
        #expect(try t.gets("slow.mp3").last?.range == "bytes=\(kept)-")
    }

    @Test func belowTheFreeSpaceFloorADownloadDoesNotStartAndTheDiskIsBlamed() throws {
        let t = try TestLibrary()
        let url = try t.serve("floor.mp3", AudioBytes.make(50_000))
        let episode = try Self.episode(url, in: t)
        var fetcher = Self.fetcher(t.library)
        fetcher.limits = DownloadLimits(minFreeBytes: Int.max / 2)
        #expect {
            try fetcher.fetch(episode)
        } throws: { error in
            guard case DownloadError.lowDiskSpace = error else { return false }
            return error.isOutOfSpace
        }
        #expect(try t.gets("floor.mp3").isEmpty)
        let recorded = try #require(try t.library.episode(id: episode.id))
        #expect(recorded.state == .new && recorded.lastError?.contains("min-free keeps") == true)
        #expect(try Self.standing(of: episode, in: t) == (0, nil))
        // No directory is left for a download that kept nothing.
        #expect(!FileManager.default.fileExists(atPath: t.library.directory(of: episode)))
    }

    @Test(.requires(SmallDisk.isAvailable, "needs root to mount a tmpfs"))
    func aFullDiskIsRecordedWithoutBackoffAndTheDownloadResumesOnceThereIsSpace() throws {
        let t = try TestLibrary()
        var disk: SmallDisk? = try SmallDisk(at: t.library.episodesDirectory, kibibytes: 512)
        try disk?.fill(leaving: 100_000)
        let data = AudioBytes.make(300_000)
        let url = try t.serve("big.mp3", data)
        let episode = try Self.episode(url, in: t)
        for _ in 1...4 {
            #expect {
                try Self.fetcher(t.library).fetch(episode)
            } throws: { error in
                "\(error)".hasSuffix(": No space left on device") && error.isOutOfSpace
            }
        }
        // Cut short by the machine: `downloading` with its partial file, so sync finishes it first;
        // never `failed`, never left alone for a while.
        let full = try #require(try t.library.episode(id: episode.id))
        #expect(full.state == .downloading && full.lastError?.hasSuffix("No space left on device") == true)
        #expect(try Self.standing(of: episode, in: t) == (0, nil))
        #expect(try t.library.files(of: full).isEmpty)

        disk?.empty()
        let kept = try t.partialFiles()["episode"] ?? 0
        #expect(try Self.fetcher(t.library).fetch(full).size == data.count)
        #expect(try t.recordedBytes(of: full) == data)
        if kept > 0 { #expect(try t.gets("big.mp3").last?.range == "bytes=\(kept)-") }
        disk = nil  // unmounted before the library's directory is removed
    }

    @Test func anHTMLPageInsteadOfAudioIsRefusedAndNothingIsKept() throws {
        let t = try TestLibrary()
        let url = t.server.url("/html/portal-\(UUID().uuidString).mp3")
        let episode = try Self.episode(url, in: t)
        #expect {
            try Self.fetcher(t.library).fetch(episode)
        } throws: { error in
            "\(error)" == "\(url) is not audio (the server sent a text/html page, perhaps a captive portal or login "
                + "page); nothing was kept"
        }
        #expect(try t.library.episode(id: episode.id)?.state == .failed)
        #expect(!FileManager.default.fileExists(atPath: t.library.directory(of: episode)))
    }

    @Test func anEpisodesOwnFailuresCountTowardsItsBackoffAndEachAttemptIsRecorded() throws {
        let t = try TestLibrary()
        let url = t.url("missing.mp3")
        let episode = try Self.episode(url, in: t)
        for _ in 1...3 {
            #expect(throws: DownloadError.http(status: 404, url: url, attempts: 1)) {
                try Self.fetcher(t.library).fetch(episode)
            }
        }
        let failed = try #require(try t.library.episode(id: episode.id))
        #expect(failed.state == .failed && failed.lastError == "server answered 404 Not Found for \(url)")
        // Three in a row: left alone for an hour.
        let standing = try Self.standing(of: episode, in: t)
        #expect(
            standing.failures == 3 && standing.retryAt.map { $0 > Int(Date().timeIntervalSince1970) + 3000 } == true)
        #expect(try t.library.attempts(of: failed).map(\.httpStatus) == [404, 404, 404])
    }

    @Test func aDownloadLargerThanAllowedIsRefusedAndNothingIsKept() throws {
        let t = try TestLibrary()
        let url = try t.serve("large.mp3", AudioBytes.make(300_000))
        var fetcher = Self.fetcher(t.library)
        fetcher.limits = DownloadLimits(maxBytes: 100 * 1024)
        let episode = try Self.episode(url, in: t)
        #expect {
            try fetcher.fetch(episode)
        } throws: { error in
            "\(error)" == "\(url) is larger than the 102400 bytes allowed (max-size, stream-max-size); nothing was kept"
        }
        #expect(try t.partialFiles().isEmpty && t.library.files(of: episode).isEmpty)
    }
}
