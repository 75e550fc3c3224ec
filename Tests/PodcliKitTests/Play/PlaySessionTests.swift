import Downloads
import EpisodeStore
import Foundation
import Playback
import Synchronization
import TestSupport
import Testing
import Threads

@testable import PodcliKit

/// A play session in-process: a real library, real decoders, ALSA's `file` plugin recording
/// what reaches the device (compared with Debian's `mpg123 -s`), and what the session saves.
@Suite struct PlaySessionTests {
    static let stereo = "tone-44k-stereo.mp3"
    static let mono = "noise-22k-mono.mp3"
    static let mpg123Present = FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123")

    /// What the session shows, and a hook on the player's thread.
    final class RecordingDisplay: PlayDisplay {
        var notes: [String] = []
        var onShow: (PlayerStatus, Episode) -> Void = { _, _ in }
        func show(_ status: PlayerStatus, of episode: Episode, podcast: String?, author: String?, chapter: String?) {
            onShow(status, episode)
        }
        func note(_ text: String) { notes.append(text) }
        func warn(_ text: String) { notes.append("warning: " + text) }
        func finish() {}
        var readerGone: Bool { false }
    }

    /// The processes a session may start: none here (the episodes have no pictures).
    struct NoHelpers: HelperProcesses {
        func postNewEpisodes(_ episodes: [DownloadedEpisode]) {}
        func renderArtwork(from source: Int32, to path: String, mode: mode_t, stop: StopEvent) -> Bool { false }
        func playInBackground(episode id: Int) throws { throw TestSupportError("no background player here") }
    }

    struct Bench {
        let t = try! TestLibrary()
        let captures = try! TemporaryDirectory(prefix: "podcli-kit-capture")
        let display = RecordingDisplay()

        /// Serves `fixtureName` and downloads it as an episode.
        func download(_ fixtureName: String) throws -> Episode {
            try download(fixture(fixtureName))
        }

        /// Serves the file at `file` and downloads it as an episode.
        func download(_ file: URL) throws -> Episode {
            let name = file.lastPathComponent
            let url = try t.serve(UUID().uuidString + "-" + name, try Data(contentsOf: file))
            let episode = try t.library.episodeToFetch(
                sourceURL: url, title: (name as NSString).deletingPathExtension, protection: .private
            ).episode
            _ = try EpisodeFetcherTests.fetcher(t.library).fetch(episode)
            return try #require(try t.library.episode(id: episode.id))
        }

        func session(listening: Listening = Listening()) -> PlaySession {
            PlaySession(
                library: t.library, display: display, device: "file:'\(captures.path)/capture_%r_%c.raw',raw",
                keymap: Keymap(skipBack: 10, skipForward: 30), downloadPolicy: TestLibrary.policy(),
                controlSocket: t.home.path + "/control", helpers: NoHelpers(), terminal: nil,
                listensForSignals: false, listening: listening)
        }

        func captured(rate: Int = 44_100, channels: Int = 2) throws -> Data {
            try Data(contentsOf: captures.appending("capture_\(rate)_\(channels).raw"))
        }

        func state(of episode: Episode) throws -> PlaybackState { try t.library.playbackState(of: episode) }
    }

    static func reference(_ fixtureName: String) throws -> Data {
        try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/mpg123"), arguments: ["-q", "-s", fixture(fixtureName).path],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit().stdoutData
    }

    /// Each episode plays whole, in turn, and ends played and out of the queue.
    @Test(.requires(mpg123Present, "mpg123 is not installed"))
    func aPlaylistPlaysEachEpisodeWholeAndMarksItPlayed() throws {
        let b = Bench()
        let first = try b.download(Self.mono)
        let second = try b.download(Self.stereo)
        _ = try b.t.library.enqueue([first, second])
        let reason = try b.session().run([first, second], from: nil, limit: nil, engine: PlaybackEngine())
        #expect(reason == .endOfEpisode)
        #expect(try b.captured(rate: 22_050, channels: 1) == (try Self.reference(Self.mono)))
        #expect(try b.captured() == (try Self.reference(Self.stereo)))
        #expect(try b.state(of: first).played && b.state(of: second).played)
        #expect(try b.t.library.queue().isEmpty)
        #expect(b.display.notes == ["Played #\(first.id) \(first.title)", "Played #\(second.id) \(second.title)"])
    }

    /// `--for 1 --from 0.5`: one second from half a second, saved where it stopped; not played,
    /// still queued. The next session resumes there by default.
    @Test(.requires(mpg123Present, "mpg123 is not installed"))
    func aLimitStopsSavingWhereItStoppedAndTheNextSessionResumesThere() throws {
        let b = Bench()
        let episode = try b.download(Self.stereo)
        _ = try b.t.library.enqueue([episode])
        let reason = try b.session().run([episode], from: 0.5, limit: 1, engine: PlaybackEngine())
        #expect(reason == .limitReached)
        let saved = try b.state(of: episode)
        #expect(!saved.played && saved.positionMilliseconds == 1_500)
        #expect(try b.t.library.queue().map(\.id) == [episode.id])
        let reference = try Self.reference(Self.stereo)
        let second = 44_100 * 4
        #expect(try b.captured() == reference.dropFirst(second / 2).prefix(second))

        try FileManager.default.removeItem(at: b.captures.appending("capture_44100_2.raw"))
        #expect(try b.session().run([episode], from: nil, limit: nil, engine: PlaybackEngine()) == .endOfEpisode)
        #expect(try b.captured() == reference.dropFirst(second * 3 / 2))
        #expect(try b.state(of: episode).played)
    }

    /// `--skip-silence medium` on 16 s with three 4 s pauses: the pauses come out as 450 ms, the
    /// episode ends played, and the time saved is recorded with it, over each time it is played.
    @Test(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
    func theTimeSkipSilenceSavedIsRecordedForTheEpisode() throws {
        let b = Bench()
        let file = b.captures.appending("paused-speech.flac")
        try PausedSpeech.make(at: file)
        let episode = try b.download(file)
        var listening = Listening()
        listening.skipSilence = .medium
        let session = b.session(listening: listening)
        #expect(try session.run([episode], from: nil, limit: nil, engine: PlaybackEngine()) == .endOfEpisode)
        #expect(try b.state(of: episode).played)
        let heard = try b.captured().count / 4
        let skipped = PausedSpeech.seconds * PausedSpeech.sampleRate - heard
        #expect(abs(Double(skipped) - 3 * (4 - 0.45) * 44_100) < 0.05 * 44_100)
        #expect(try b.t.library.silenceSkipped(in: episode) == skipped * 1000 / 44_100)
        let report = try EpisodeReport(episode, in: b.t.library)
        #expect(report.silenceSkipped == Double(skipped * 1000 / 44_100) / 1000)
        #expect(report.lines.contains { $0.hasPrefix("Skipped") && $0.hasSuffix("0:10 of silence") }, "\(report.lines)")

        // Played again from 6 s (the second pause), for 5 s: what that skipped is added.
        let again = b.session(listening: listening)
        #expect(try again.run([episode], from: 6, limit: 5, engine: PlaybackEngine()) == .limitReached)
        let added = try b.t.library.silenceSkipped(in: episode) - skipped * 1000 / 44_100
        #expect(abs(Double(added) - (4 - 0.45) * 1000) < 100)
        // And nothing without skip silence.
        let before = try b.t.library.silenceSkipped(in: episode)
        #expect(try b.session().run([episode], from: 6, limit: 1, engine: PlaybackEngine()) == .limitReached)
        #expect(try b.t.library.silenceSkipped(in: episode) == before)
    }

    /// `next` leaves the first episode where it was heard (saved, not played) for the second,
    /// which resumes at its saved place; `quit` there saves that place and ends the session.
    /// (The `file` device is not paced: commands go in at each episode's first report.)
    /// A length no Int64 of microseconds holds (a stream still arriving can guess one) is no
    /// length on MPRIS, not a trap.
    @Test func aTimeMPRISCannotHoldIsNoTime() {
        #expect(PlaySession.microseconds(90.25) == 90_250_000)
        #expect(PlaySession.microseconds(1e12) == 1_000_000_000_000_000_000)
        #expect(PlaySession.microseconds(1e14) == nil)
        #expect(PlaySession.microseconds(.infinity) == nil)
        #expect(PlaySession.microseconds(.nan) == nil)
    }

    @Test func nextSavesTheFirstsPlaceAndQuitEndsTheSessionSaving() throws {
        let b = Bench()
        let first = try b.download(Self.stereo)
        let second = try b.download(Self.stereo)
        try b.t.library.setPlaybackState(PlaybackState(positionMilliseconds: 2_000, played: false), of: second)
        let session = b.session()
        let commands = session.commands
        var sent: [Int: PlayerCommand] = [:]
        b.display.onShow = { _, episode in
            guard sent[episode.id] == nil else { return }
            sent[episode.id] = episode.id == first.id ? .next : .quit
            commands.post(sent[episode.id]!)
        }
        let reason = try session.run([first, second], from: 1, limit: nil, engine: PlaybackEngine())
        #expect(reason == .quit)
        #expect(sent == [first.id: .next, second.id: .quit])
        for (episode, start) in [(first, 1_000), (second, 2_000)] {
            let saved = try b.state(of: episode)
            #expect(!saved.played, "#\(episode.id)")
            // Where it was heard when the command came: from its start, at most a little on.
            #expect(
                saved.positionMilliseconds >= start && saved.positionMilliseconds < start + 1_000,
                "#\(episode.id): \(saved)")
        }
        #expect(b.display.notes.isEmpty, "neither was played to the end")
    }

    /// A URL that cannot be streamed (the server has no such file) fails the session and leaves
    /// no episode behind; one that was streamed stays.
    @Test func aURLThatCannotBeStreamedLeavesNoEpisode() throws {
        let b = Bench()
        let missing = try Playlist(b.t.url("missing.mp3"), library: b.t.library, protection: .private)
        #expect(missing.madeHere != nil)
        #expect(throws: DownloadError.self) {
            try b.session().run(missing, from: nil, limit: nil, engine: PlaybackEngine())
        }
        #expect(try b.t.library.episodes().isEmpty)

        let url = try b.t.serve("there.mp3", try Data(contentsOf: fixture(Self.stereo)))
        let streamed = try Playlist(url, library: b.t.library, protection: .private)
        #expect(try b.session().run(streamed, from: nil, limit: nil, engine: PlaybackEngine()) == .endOfEpisode)
        #expect(try b.t.library.episodes().map(\.state) == [.downloaded])
    }
}
