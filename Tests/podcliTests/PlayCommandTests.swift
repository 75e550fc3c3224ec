import Foundation
import TestSupport
import Testing

/// `podcli play` end to end: the built podcli plays downloaded episodes on an ALSA capture device
/// (the `file` plugin in front of `null`), and what reached the device is compared with
/// `mpg123 -s` decoding the same file.
@Suite(.requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123"), "mpg123 is not installed"))
struct PlayCommandTests {
    /// A library with the project's fixtures downloaded, and a capture device of its own.
    struct Library {
        let t: CLITestCase
        let captures: TemporaryDirectory

        init() throws {
            t = try CLITestCase()
            captures = try TemporaryDirectory(prefix: "podcli-capture")
        }

        /// Serves and fetches a fixture; returns its episode number.
        func download(_ fixtureName: String) throws -> String {
            let data = try Data(contentsOf: fixture(fixtureName))
            let fetch = try t.run(["fetch", try t.source(fixtureName, data: data).url, "--json"])
            guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
            let record = try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any]
            return "\(record["id"] as! Int)"
        }

        /// An ALSA device string recording to `<captures>/<name>_<rate>_<channels>.raw`, a new
        /// file for each format (the `file` plugin expands %r and %c).
        func device(_ name: String = "capture") -> String {
            "file:'\(captures.path)/\(name)_%r_%c.raw',raw"
        }

        func captured(_ name: String = "capture", rate: Int = 44_100, channels: Int = 2) throws -> Data {
            try Data(contentsOf: captures.appending("\(name)_\(rate)_\(channels).raw"))
        }

        func play(_ arguments: [String], device: String? = nil) throws -> ProcessResult {
            try t.run(["play"] + arguments + ["--device", device ?? self.device()])
        }
    }

    static func reference(_ fixtureName: String) throws -> Data {
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/mpg123"), arguments: ["-q", "-s", fixture(fixtureName).path],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        return result.stdoutData
    }

    static let stereo = "tone-44k-stereo.mp3"
    static let mono = "noise-22k-mono.mp3"
    /// Bytes in one second of the stereo fixture.
    static let second = 44_100 * 4

    @Test func playsTheWholeEpisodeExactlyAndMarksItPlayed() throws {
        let library = try Library()
        let id = try library.download(Self.stereo)
        let play = try library.play([id])
        #expect(play.status == 0, "\(play)")
        #expect(play.stdout == "Playing #\(id) tone-44k-stereo from 0:00 of 0:03\nPlayed #\(id) tone-44k-stereo\n")
        #expect(play.stderr.isEmpty)
        #expect(try library.captured() == (try Self.reference(Self.stereo)))
        let record = try library.t.show(id)
        #expect(record["played"] as? Bool == true)
        #expect(record["position"] as? Double == 0)
    }

    /// What a sync server learns of plays (the outbox): a stop is a play from where playing began
    /// to where it stopped, and a play to the end replaces it, from where it resumed to the
    /// file's length; the periodic saves between write nothing.
    @Test(.requires(TestEnvironment.has("/usr/bin/sqlite3"), "needs sqlite3"))
    func aStopAndTheEndArePlaysForTheSyncServer() throws {
        let library = try Library()
        let audio = try library.t.source(Self.stereo, data: try Data(contentsOf: fixture(Self.stereo)))
        let rss = FeedCommandTests.rss(
            title: "Tones", items: [.init(title: "Tone", guid: "tone-1", url: audio.url, length: audio.data.count)])
        let feed = try library.t.source("tones.xml", data: Data(rss.utf8)).url
        let fetch = try library.t.run(["fetch", feed, "--download", "all", "--json"])
        #expect(fetch.status == 0, "\(fetch)")
        let listed = try JSONSerialization.jsonObject(with: try library.t.run(["list", "--json"]).stdoutData)
        let id = "\((listed as! [[String: Any]])[0]["id"] as! Int)"
        func plays() throws -> String {
            let result = try RunningProcess(
                executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
                arguments: [
                    library.t.home.path + "/podcli.db",
                    "SELECT podcast_url, episode_url, guid, started, position, total FROM outbox WHERE action = 'play'",
                ], environment: [:]
            ).waitUntilExit()
            return result.stdout
        }
        let first = try library.play([id, "--for", "2.5"], device: library.device("first"))
        #expect(first.status == 0, "\(first)")
        #expect(try plays() == "\(feed)|\(audio.url)|tone-1|0|2|3\n")
        let second = try library.play([id], device: library.device("second"))
        #expect(second.status == 0, "\(second)")
        #expect(try plays() == "\(feed)|\(audio.url)|tone-1|2|3|3\n")
    }

    @Test func resumesExactlyWhereItWasLeft() throws {
        let library = try Library()
        let id = try library.download(Self.stereo)
        let first = try library.play([id, "--for", "1.5"], device: library.device("first"))
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.hasSuffix("Stopped at 0:01 of 0:03\n"))
        #expect(try library.t.show(id)["position"] as? Double == 1.5)
        #expect(try library.t.show(id)["played"] as? Bool == false)

        let second = try library.play([id], device: library.device("second"))
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.hasPrefix("Playing #\(id) tone-44k-stereo from 0:01 of 0:03\n"))
        let reference = try Self.reference(Self.stereo)
        #expect(try library.captured("first") == reference.prefix(Self.second * 3 / 2))
        #expect(try library.captured("second") == reference.dropFirst(Self.second * 3 / 2))
    }

    @Test(arguments: [("2", 2.0), ("0:02", 2.0), ("0:00:01.25", 1.25)])
    func fromStartsAtTheTimeGiven(time: String, seconds: Double) throws {
        let library = try Library()
        let id = try library.download(Self.stereo)
        #expect(try library.play([id, "--for", "1"]).status == 0)
        let play = try library.play([id, "--from", time], device: library.device("from"))
        #expect(play.status == 0, "\(play)")
        let skipped = Int(seconds * 44_100) * 4
        #expect(try library.captured("from") == (try Self.reference(Self.stereo)).dropFirst(skipped))
    }

    @Test(arguments: ["1:99", "abc", "-5", "1::2", "99999999999999999999"])
    func aTimeThatIsNotOneIsAUsageError(time: String) throws {
        let library = try Library()
        let id = try library.download(Self.stereo)
        let play = try library.play([id, "--from", time])
        #expect(play.status == 64)
        #expect(play.stderr.contains("'\(time)'"))
    }

    /// A typo must not mark the episode played: a start past the end is refused.
    @Test func fromPastTheEndIsRefusedAndChangesNothing() throws {
        let library = try Library()
        let id = try library.download(Self.stereo)
        let play = try library.play([id, "--from", "5:00"])
        #expect(play.status == 64, "\(play)")
        #expect(play.stderr == "podcli: --from 5:00 is past the end of #\(id) (0:03)\n")
        #expect(try library.t.show(id)["played"] as? Bool == false)
    }

    @Test func withNoSoundDeviceSaysSoInOneLineAndHowToChooseOne() throws {
        let library = try Library()
        let id = try library.download(Self.stereo)
        let play = try library.play([id], device: "podcli_no_such_device")
        #expect(play.status == 69)
        #expect(
            play.stderr
                == "podcli: no sound device: ALSA cannot open 'podcli_no_such_device' (No such file or directory); "
                + "choose one with --device NAME, PODCLI_DEVICE or 'device = NAME' in the config "
                + "('--device null' plays silently)\n")
        #expect(try library.t.show(id)["played"] as? Bool == false)
    }

    @Test func theDeviceComesFromTheEnvironmentThenTheConfig() throws {
        let library = try Library()
        let id = try library.download(Self.stereo)
        let fromEnvironment = try library.t.run(["play", id], environment: ["PODCLI_DEVICE": library.device("env")])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
        #expect(try library.captured("env") == (try Self.reference(Self.stereo)))

        _ = try library.t.home.write("device = \(library.device("config"))\n", to: "config")
        let fromConfig = try library.t.run(["play", id])
        #expect(fromConfig.status == 0, "\(fromConfig)")
        #expect(try library.captured("config") == (try Self.reference(Self.stereo)))
    }

    @Test func withNoEpisodeItPlaysTheQueueInOrderAndEmptiesIt() throws {
        let library = try Library()
        let stereo = try library.download(Self.stereo)
        let mono = try library.download(Self.mono)
        #expect(try library.t.run(["queue", "add", mono, stereo]).status == 0)
        let play = try library.play([])
        #expect(play.status == 0, "\(play)")
        #expect(
            play.stdout == """
                Playing #\(mono) noise-22k-mono from 0:00 of 0:02
                Played #\(mono) noise-22k-mono
                Playing #\(stereo) tone-44k-stereo from 0:00 of 0:03
                Played #\(stereo) tone-44k-stereo

                """)
        #expect(try library.captured(rate: 22_050, channels: 1) == (try Self.reference(Self.mono)))
        #expect(try library.captured(rate: 44_100, channels: 2) == (try Self.reference(Self.stereo)))
        #expect(try library.t.run(["queue", "ls"]).stdout == "The queue is empty.\n")
    }

    @Test func anAudioURLPlaysAsItDownloadsAndIsRecordedOnceComplete() throws {
        let library = try Library()
        let data = try Data(contentsOf: fixture(Self.stereo))
        let url = try library.t.source("streamed.mp3", data: data).url + "?slow=20000"
        let play = try library.play([url])
        #expect(play.status == 0, "\(play)")
        #expect(play.stdout.hasPrefix("Streaming #1 streamed from \(url)\nPlaying #1 streamed from 0:00\n"))
        #expect(try library.captured() == (try Self.reference(Self.stereo)))
        let record = try library.t.show("1")
        #expect(record["state"] as? String == "downloaded")
        #expect(record["played"] as? Bool == true)
        #expect(try library.t.run(["verify"]).status == 0)
    }

    static let corpusSpeech = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/audio/jfk-speech-128k.mp3").standardized.path

    /// 84 s of speech (1.3 MB) arriving at 200 kB/s: two seconds are heard long before the
    /// download ends; quitting leaves a partial download, and playing the URL again resumes both.
    @Test(.requires(FileManager.default.fileExists(atPath: corpusSpeech), "the corpus is not present"))
    func quittingAStreamKeepsWhatArrivedAndTheNextPlayResumesBoth() throws {
        let library = try Library()
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.corpusSpeech))
        let url = try library.t.source("speech.mp3", data: data).url + "?slow=200000"
        let first = try library.play([url, "--for", "2"], device: library.device("first"))
        #expect(first.status == 0, "\(first)")
        #expect(try library.t.show("1")["state"] as? String != "downloaded")
        #expect(try library.t.show("1")["position"] as? Double == 2)

        let second = try library.play([url], device: library.device("second"))
        #expect(second.status == 0, "\(second)")
        let reference = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/mpg123"), arguments: ["-q", "-s", Self.corpusSpeech],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit().stdoutData
        #expect(try library.captured("first") == reference.prefix(2 * Self.second))
        #expect(try library.captured("second") == reference.dropFirst(2 * Self.second))
        #expect(try library.t.show("1")["state"] as? String == "downloaded")
        #expect(try library.t.run(["verify"]).status == 0)
    }

    @Test func aURLThatIsNotAudioFailsClearlyAndRecordsNothingPlayed() throws {
        let library = try Library()
        let url = try library.t.source("page.mp3", data: Data("<html><body>hi</body></html>".utf8)).url
        let play = try library.play([url + "?ctype=text/html"])
        #expect(play.status == 65, "\(play)")
        #expect(play.stderr.hasPrefix("podcli: "))
        #expect(play.stderr.split(separator: "\n").count == 1)
    }

    /// A feed's episode that is queued but not downloaded streams when its turn comes.
    @Test func aQueuedEpisodeNotYetDownloadedStreamsInItsTurn() throws {
        let library = try Library()
        let downloaded = try library.download(Self.stereo)
        let world = try FeedCommandTests.World()
        let data = try Data(contentsOf: fixture(Self.mono))
        var item = world.item(1)
        item.url = try library.t.source("mono.mp3", data: data).url
        item.length = data.count
        let feed = try world.serve("feed.xml", FeedCommandTests.rss(title: "Noise", items: [item]))
        #expect(try library.t.run(["fetch", feed]).status == 0)
        let listed = try library.t.run(["list", "noise", "--json"])
        let episodes = try JSONSerialization.jsonObject(with: listed.stdoutData) as! [[String: Any]]
        let streamed = "\(episodes[0]["id"] as! Int)"
        #expect(try library.t.run(["queue", "add", streamed]).status == 0)

        let play = try library.play([downloaded])
        #expect(play.status == 0, "\(play)")
        #expect(play.stdout.contains("Streaming #\(streamed) Episode 1 from \(item.url)\n"))
        #expect(try library.captured(rate: 44_100, channels: 2) == (try Self.reference(Self.stereo)))
        #expect(try library.captured(rate: 22_050, channels: 1) == (try Self.reference(Self.mono)))
        #expect(try library.t.show(streamed)["state"] as? String == "downloaded")
        #expect(try library.t.show(streamed)["played"] as? Bool == true)
    }

    /// An episode that cannot be played (its audio is gone from the server) is named and
    /// skipped; the rest of the queue plays, and the exit code says something failed.
    @Test func anUnplayableEpisodeIsSkippedAndTheQueueGoesOn() throws {
        let library = try Library()
        let stereo = try library.download(Self.stereo)
        let world = try FeedCommandTests.World()
        var item = world.item(1)
        item.url = library.t.server.url("/files/no-such-episode.mp3")
        let feed = try world.serve("feed.xml", FeedCommandTests.rss(title: "Gone", items: [item]))
        #expect(try library.t.run(["fetch", feed]).status == 0)
        let listed = try library.t.run(["list", "gone", "--json"])
        let gone = "\((try JSONSerialization.jsonObject(with: listed.stdoutData) as! [[String: Any]])[0]["id"] as! Int)"
        #expect(try library.t.run(["queue", "add", gone, stereo]).status == 0)

        let play = try library.play([])
        #expect(play.status == 69, "\(play)")
        let errors = play.stderr.split(separator: "\n")
        #expect(errors.count == 2)
        #expect(errors.first?.hasPrefix("podcli: #\(gone) Episode 1 cannot be played: ") == true)
        #expect(errors.last == "podcli: 1 episode could not be played (see above)")
        #expect(play.stdout.contains("Played #\(stereo) tone-44k-stereo\n"))
        #expect(try library.captured() == (try Self.reference(Self.stereo)))
        #expect(try library.t.show(gone)["played"] as? Bool == false)
    }

    @Test func anEmptyQueueWithNoEpisodeSaysWhatToDo() throws {
        let library = try Library()
        let play = try library.play([])
        #expect(play.status == 66)
        #expect(play.stderr.contains("the queue is empty"))
    }
}
