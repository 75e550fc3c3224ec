import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Bookmarks through the CLI (issue 24): `podcli bookmark` on a running player records the
/// position heard and the chapter there, `b` does the same from the keys, `bookmarks` lists them
/// with a command that plays from each, `bookmarks rm` removes them. The player plays a generated
/// tone on a paced device (a PulseAudio null sink behind an ALSA `file` tap), so it is still
/// playing while it is asked.
@Suite(
    .requires(
        PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled
            && ["/usr/bin/mpg123", "/usr/bin/sox", "/usr/bin/lame"].allSatisfy(TestEnvironment.has),
        "needs pulseaudio, libasound2-plugins, mpg123, sox and lame"))
struct BookmarkCommandTests {
    /// A feed "Show" of one episode "Tone" (the 40 s tone) with Podlove chapters "Opening" at 0 s
    /// and "Second part" at 10 s, downloaded; a paced capture device.
    struct Player {
        let library: PlayCommandTests.Library
        let id: String
        let directory: TemporaryDirectory
        let capture: ALSACapture
        var t: CLITestCase { library.t }

        init() throws {
            library = try PlayCommandTests.Library()
            let audio = try library.t.source("tone.mp3", data: try PlaySleepTimerTests.tone())
            let rss = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters"><channel><title>Show</title>
                <item><title>Tone</title><guid>tone</guid>
                <psc:chapters version="1.2"><psc:chapter start="00:00:00" title="Opening"/>
                <psc:chapter start="00:00:10" title="Second part"/></psc:chapters>
                <enclosure url="\(audio.url)" length="\(audio.data.count)" type="audio/mpeg"/></item>
                </channel></rss>
                """
            let feed = try library.t.source("feed.xml", data: Data(rss.utf8)).url
            let fetch = try library.t.run(["fetch", feed, "--download", "all"])
            guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
            let listed = try JSONSerialization.jsonObject(with: try library.t.run(["list", "--json"]).stdoutData)
            id = "\((listed as! [[String: Any]])[0]["id"] as! Int)"
            directory = try TemporaryDirectory(prefix: "podcli-bookmarks")
            capture = try ALSACapture(directory: directory, pulseAudio: try PulseAudioServer())
        }

        var arguments: [String] { ["--home", t.home.path, "play", id, "--device", ALSACapture.pacedDeviceName] }
        var environment: [String: String] { t.podcli.childEnvironment(capture.environment) }

        func status() throws -> [String: Any] {
            let result = try t.run(["status", "--json"])
            guard result.status == 0 else { throw TestSupportError("status: \(result)") }
            return try JSONSerialization.jsonObject(with: result.stdoutData) as! [String: Any]
        }

        func bookmarks() throws -> [[String: Any]] {
            let result = try t.run(["bookmarks", "--json"])
            guard result.status == 0 else { throw TestSupportError("bookmarks: \(result)") }
            return try JSONSerialization.jsonObject(with: result.stdoutData) as! [[String: Any]]
        }

        /// Pauses the running player and takes it to `seconds`, waiting until `status` says so.
        func pause(at seconds: Double) throws {
            #expect(waitUntil(timeout: 10) { (try? status()["state"] as? String) == "playing" })
            #expect(try t.run(["pause"]).status == 0)
            #expect(waitUntil(timeout: 5) { (try? status()["state"] as? String) == "paused" })
            #expect(try t.run(["seek-to", "\(seconds)"]).status == 0)
            #expect(waitUntil(timeout: 5) { (try? status()["position"] as? Double) == seconds })
        }
    }

    /// `podcli bookmark "a note"` at 12.5 s: the bookmark has that position (to 0.5 s of media),
    /// the chapter heard there and the note; the player says so on its line; `bookmarks` lists it
    /// with a command `play` takes; `unsubscribe --keep-bookmarks` keeps it; `bookmarks rm`
    /// removes it, and a second rm says there is none.
    @Test func aBookmarkOnTheRunningPlayerIsListedWithTheCommandThatPlaysFromIt() throws {
        let player = try Player()
        let process = try RunningProcess(
            executable: player.t.podcli.executableURL, arguments: player.arguments + ["--from", "20"],
            environment: player.environment)
        defer { process.kill(signal: SIGKILL) }
        try player.pause(at: 12.5)
        let made = try player.t.run(["bookmark", "a note"])
        #expect(made.status == 0, "\(made)")
        #expect(made.stdout == "Bookmark 1: #\(player.id) Show — Tone at 0:12 (Second part): a note\n")
        #expect(try player.t.run(["stop"]).status == 0)
        let played = try process.waitUntilExit(timeout: 30)
        #expect(played.status == 0, "\(played)")
        #expect(played.stdout.contains("\nBookmark 1 at 0:12 (Second part): a note\n"), "\(played)")

        let listed = try player.bookmarks()
        #expect(listed.count == 1)
        let bookmark = try #require(listed.first)
        #expect(abs((bookmark["position"] as? Double ?? -1) - 12.5) <= 0.5, "\(bookmark)")
        #expect(bookmark["id"] as? Int == 1 && bookmark["episode_id"] as? Int == Int(player.id))
        #expect(bookmark["note"] as? String == "a note" && bookmark["chapter"] as? String == "Second part")
        #expect(bookmark["episode"] as? String == "Tone" && bookmark["feed"] as? String == "Show")
        #expect(bookmark["from"] as? String == "0:12")
        #expect(bookmark["command"] as? String == "podcli play \(player.id) --from 0:12")
        let text = try player.t.run(["bookmarks", player.id])
        #expect(
            text.stdout == "1  #\(player.id) Show — Tone at 0:12 (Second part): a note\n"
                + "    podcli play \(player.id) --from 0:12\n")

        // The command's time is one `play --from` takes.
        let replay = try player.library.play([player.id, "--from", "0:12", "--for", "0.1"])
        #expect(replay.status == 0 && replay.stdout.hasPrefix("Playing #\(player.id) Show — Tone from 0:12 of 0:40\n"))

        // Kept through an unsubscribe that forgets the episode: listed by the titles it had,
        // played from its audio URL.
        let url = try #require(bookmark["url"] as? String)
        let unsubscribed = try player.t.run(["unsubscribe", "Show", "--delete-files", "--keep-bookmarks"])
        #expect(unsubscribed.status == 0, "\(unsubscribed)")
        let kept = try #require(try player.bookmarks().first)
        #expect(kept["episode_id"] == nil && kept["episode"] as? String == "Tone" && kept["feed"] as? String == "Show")
        #expect(kept["command"] as? String == "podcli play '\(url)' --from 0:12")

        let removed = try player.t.run(["bookmarks", "rm", "1"])
        #expect(removed.status == 0 && removed.stdout == "Removed bookmark 1\n", "\(removed)")
        #expect(try player.bookmarks().isEmpty)
        let again = try player.t.run(["bookmarks", "rm", "1"])
        #expect(again.status == 66)
        #expect(again.stderr == "podcli: no bookmark 1 (see 'podcli bookmarks')\n")
    }

    /// `b` on the player's own terminal bookmarks the moment heard, with no note, and says so
    /// on a line above the now-playing line.
    @Test func theBKeyBookmarksTheMomentHeardAndSaysSo() throws {
        let player = try Player()
        let session = try TerminalSession(
            executable: player.t.podcli.executableURL, arguments: player.arguments + ["--from", "3"],
            environment: player.environment)
        try player.pause(at: 4)
        session.type("b")
        #expect(session.waitForOutput(containing: "Bookmark 1 at 0:04 (Opening)"), "\(session.output)")
        // The same moment from elsewhere, as JSON: the bookmark as `bookmarks --json` lists it.
        let json = try player.t.run(["bookmark", "--json", "again"])
        #expect(json.status == 0, "\(json)")
        let made = try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any]
        #expect(made?["id"] as? Int == 2 && made?["note"] as? String == "again" && made?["from"] as? String == "0:04")
        session.type("q")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        let bookmarks = try player.bookmarks()
        #expect(bookmarks.count == 2)
        let bookmark = try #require(bookmarks.first)
        #expect(abs((bookmark["position"] as? Double ?? -1) - 4) <= 0.5, "\(bookmark)")
        #expect(bookmark["note"] == nil && bookmark["chapter"] as? String == "Opening")
    }
}

/// What `bookmark` and `bookmarks rm` say to input they cannot take: one line, and the code.
@Suite struct BookmarkCommandErrorTests {
    @Test func aBookmarkWithNoPlayerSaysNothingIsPlaying() throws {
        let t = try CLITestCase()
        let result = try t.run(["bookmark", "a", "note"])
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "podcli: nothing is playing (start a player with 'podcli play')\n")
    }

    @Test func aNoteTooLongIsRefusedBeforeAskingThePlayer() throws {
        let t = try CLITestCase()
        let result = try t.run(["bookmark", String(repeating: "a", count: 1_001)])
        #expect(result.status == 64)
        #expect(result.stderr == "podcli: a bookmark's note is at most 1000 characters (this one has 1001)\n")
    }

    @Test(arguments: [
        ("7", 66, "podcli: no bookmark 7 (see 'podcli bookmarks')\n"),
        ("seven", 64, "podcli: 'seven' is not a bookmark's number (see 'podcli bookmarks')\n"),
    ])
    func removingWhatIsNotABookmarkSaysSo(number: String, status: Int32, message: String) throws {
        let t = try CLITestCase()
        let result = try t.run(["bookmarks", "rm", number])
        #expect(result.status == status)
        #expect(result.stderr == message)
    }

    @Test func noBookmarksIsSaidSo() throws {
        let t = try CLITestCase()
        #expect(try t.run(["bookmarks"]).stdout == "No bookmarks.\n")
        #expect(try t.run(["bookmarks", "--json"]).stdout == "[\n\n]\n")
    }
}
