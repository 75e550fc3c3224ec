import Downloads
import EpisodeStore
import Foundation
import Synchronization
import TestSupport
import Testing
import Threads

@testable import PodcliKit

/// `EpisodeFetcher` in-process: the one path from an audio URL to a recorded file, through real
/// libcurl against the loopback fault server, into a real SQLite file and episode directory.
@Suite struct EpisodeFetcherTests {
    /// The episode `fetch URL` makes for `url` (one per URL).
    static func episode(_ url: String, in t: TestLibrary, protection: Protection = .private) throws -> Episode {
        try t.library.episodeToFetch(sourceURL: url, title: "episode", protection: protection).episode
    }

    static func fetcher(_ library: Library, attempts: Int = 5, stop: StopEvent? = nil) -> EpisodeFetcher {
        EpisodeFetcher(
            library: library, downloader: Downloader(policy: TestLibrary.policy(attempts: attempts), stop: stop))
    }

    @Test(arguments: [Protection.private, .open])
    func aFetchDownloadsRecordsAndProtectsTheEpisode(protection: Protection) throws {
        let t = try TestLibrary()
        let data = AudioBytes.make(200_000)
        let url = try t.serve("first-episode.mp3", data)
        let episode = try Self.episode(url, in: t, protection: protection)
        var fetcher = Self.fetcher(t.library)
        var events: [String] = []
        fetcher.onEvent = { event in
            switch event {
            case .progress: if events.last != "progress" { events.append("progress") }
            case .retrying(let why): events.append("retrying: \(why)")
            case .ended: events.append("ended")
            case .warning(let line): events.append("warning: \(line)")
            }
        }
        var started = 0
        let file = try fetcher.fetch(episode, onStart: { started += 1 })
        #expect(started == 1 && events == ["progress", "ended"])

        let path = t.library.path(of: file)
        #expect(path == t.library.directory(of: episode) + "/first-episode.mp3")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
        let digest = try sha256(of: data)
        #expect(file.size == data.count && file.sha256 == digest)
        #expect(file.protection == protection && file.contentType == "audio/mpeg")
        let fileMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let directoryMode =
            try FileManager.default.attributesOfItem(atPath: t.library.directory(of: episode))[.posixPermissions]
            as? Int
        #expect(fileMode == Int(protection.fileMode) && Int(file.mode) & 0o777 == Int(protection.fileMode))
        #expect(directoryMode == Int(protection.directoryMode))
        #expect(t.files(of: episode) == ["first-episode.mp3"])

        let recorded = try #require(try t.library.episode(id: episode.id))
        // The validator belonged to the partial file: the recorded one needs none.
        #expect(recorded.state == .downloaded && recorded.downloadedAt != nil && recorded.validator == nil)
        #expect(recorded.lastError == nil)
        let attempts = try t.library.attempts(of: recorded)
        #expect(attempts.map(\.httpStatus) == [200] && attempts.first?.bytes == data.count)
        #expect(attempts.first?.finishedAt != nil && attempts.first?.url == url)

        // Asked again with what it knew before (another podcli finished it meanwhile): no download.
        #expect(try Self.fetcher(t.library).fetch(episode) == file)
        #expect(try t.gets("first-episode.mp3").count == 1)
        #expect(
            try t.library.episodeToFetch(sourceURL: url, title: "again", protection: .open).episode.id == episode.id)
    }

    @Test func aTransferCutShortIsRetriedFromWhereItStopped() throws {
        let t = try TestLibrary()
        let data = AudioBytes.make(300_000)
        let url = try t.serve("long.mp3", data) + "?drop=120000"
        var retries: [String] = []
        var fetcher = Self.fetcher(t.library)
        fetcher.onEvent = { if case .retrying(let why) = $0 { retries.append(why) } }
        let file = try fetcher.fetch(try Self.episode(url, in: t))
        #expect(try t.recordedBytes(of: t.library.episode(id: file.episodeID)!) == data)
        #expect(try t.gets("long.mp3").map(\.range) == [nil, "bytes=120000-"])
        #expect(retries.count == 1 && retries[0].hasSuffix(" s"), "\(retries)")
    }

    @Test func aDownloadLeftPartialIsResumedByTheNextFetchAskingOnlyForTheRest() throws {
        let t = try TestLibrary()
        let data = AudioBytes.make(300_000)
        let url = try t.serve("long.mp3", data) + "?drop=120000"
        let episode = try Self.episode(url, in: t)
        // One attempt only: the cut is this fetch's end.
        #expect(throws: DownloadError.self) { try Self.fetcher(t.library, attempts: 1).fetch(episode) }
        let failed = try #require(try t.library.episode(id: episode.id))
        #expect(failed.state == .failed && failed.lastError != nil)
        #expect(try t.partialFiles() == ["episode": 120_000])

        let file = try Self.fetcher(t.library).fetch(failed)
        #expect(try t.recordedBytes(of: failed) == data && file.size == data.count)
        let requests = try t.gets("long.mp3")
        #expect(requests.map(\.range) == [nil, "bytes=120000-"])
        #expect(requests.last?.bodyBytesSent == data.count - 120_000)
        #expect(try t.partialFiles().isEmpty && t.library.episode(id: episode.id)?.lastError == nil)
    }

    @Test func twoFetchesAtOnceMakeOneDownload() throws {
        let t = try TestLibrary()
        let data = AudioBytes.make(400_000)
        // About eight seconds at this pace: the window must outlast a loaded machine.
        let url = try t.serve("shared.mp3", data) + "?slow=50000"
        let episode = try Self.episode(url, in: t)
        let outcome = Mutex<Result<EpisodeFile, any Error>?>(nil)
        let first = Thread { [directory = t.directory] in
            // A connection of its own, as another podcli would have.
            let result = Result { try Self.fetcher(try Library(directory: directory)).fetch(episode) }
            outcome.withLock { $0 = result }
        }
        first.start()
        #expect(waitUntil(timeout: 20) { (try? t.library.episode(id: episode.id)?.state) == .downloading })

        #expect {
            try Self.fetcher(t.library).fetch(episode)
        } throws: { error in
            guard case StoreError.busy(let what) = error else { return false }
            return what == "another podcli is downloading #\(episode.id) episode"
        }
        #expect(waitUntil(timeout: 60) { outcome.withLock { $0 } != nil })
        let file = try #require(try outcome.withLock { $0 }?.get())
        #expect(try t.recordedBytes(of: episode) == data && file.size == data.count)
        #expect(try t.gets("shared.mp3").count == 1)
    }
}
