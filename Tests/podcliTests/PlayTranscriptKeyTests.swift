import Foundation
import TestSupport
import Testing
import Transcripts

/// The `t` key while playing, on a real pty: the cue being spoken under the now-playing line.
@Suite(
    .requires(
        PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123"),
        "needs pulseaudio, libasound2-plugins and mpg123"))
struct PlayTranscriptKeyTests {
    /// The 3 s episode with a cue at its start and one at 1 s, cached as the fetch caches it.
    static func playerWithTranscript() throws -> PlayTerminalTests.Player {
        let player = try PlayTerminalTests.Player()
        let uuid = try #require(try player.library.t.show(player.id)["uuid"] as? String)
        let transcript = Transcript(
            cues: [
                TranscriptCue(start: 0, end: 1, speaker: "Ann", text: "First words\u{1B}[2J here."),
                TranscriptCue(start: 1, speaker: "Bob", text: "Later words."),
            ], format: .webVTT)
        try JSONEncoder().encode(transcript).write(
            to: URL(fileURLWithPath: player.library.t.home.path + "/episodes/\(uuid)/transcript.json"))
        return player
    }

    /// The episode with its transcript playing with no terminal, paused at 2 s (in Bob's cue).
    static func pausedAtTwoSeconds() throws -> (PlayTerminalTests.Player, RunningProcess) {
        let player = try playerWithTranscript()
        let process = try player.inBackground()
        let t = player.library.t
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 0.2 })
        #expect(try t.run(["pause"]).status == 0)
        #expect(try t.run(["seek-to", "2"]).status == 0)
        #expect(waitUntil(timeout: 5) { (try? t.run(["status"]).stdout.contains("0:02 / 0:03")) == true })
        return (player, process)
    }

    @Test func tShowsTheCueBeingSpokenAsItPlaysAndHidesItAgain() throws {
        let player = try Self.playerWithTranscript()
        let session = try player.onTerminal()
        #expect(session.waitForOutput(containing: "▶"))
        #expect(!session.output.contains("First words"))
        session.type("t")
        // Under the now-playing line, its escape a space; then the next cue as the position passes it.
        #expect(session.waitForOutput(containing: "\nAnn: First words [2J here."), "\(session.output)")
        #expect(session.waitForOutput(containing: "\nBob: Later words."), "\(session.output)")
        // Paused, so only the key can clear the line under the now-playing line (the end also would).
        session.type(" ")
        #expect(session.waitForOutput(containing: "⏸"))
        session.type("t")
        #expect(session.waitForOutput(containing: "\u{1B}[J"), "\(session.output)")
        session.type(" ")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        // Hidden: no cue drawn again as it plays on.
        let hidden = try #require(session.output.range(of: "\u{1B}[J"))
        #expect(!session.output[hidden.upperBound...].contains("Later words"), "\(session.output)")
    }

    @Test func tWithoutATranscriptSaysSoOnce() throws {
        let player = try PlayTerminalTests.Player()
        let session = try player.onTerminal()
        #expect(session.waitForOutput(containing: "▶"))
        session.type("t")
        #expect(session.waitForOutput(containing: "#\(player.id) has no transcript."), "\(session.output)")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        #expect(session.output.components(separatedBy: "has no transcript").count == 2, "\(session.output)")
    }

    /// `podcli transcript ID` of the episode playing starts where it is (`--at` still chooses).
    @Test func transcriptOfThePlayingEpisodeStartsAtItsPosition() throws {
        let (player, process) = try Self.pausedAtTwoSeconds()
        let t = player.library.t
        let result = try t.run(["transcript", player.id])
        #expect(result.status == 0 && result.stdout == "0:01  Bob: Later words.\n", "\(result)")
        #expect(try t.run(["transcript", player.id, "--at", "0"]).stdout.hasPrefix("0:00  Ann: First words"))
        #expect(try t.run(["stop"]).status == 0)
        #expect(try process.waitUntilExit().status == 0)
    }

    /// `attach` to a player shows the cue at the player's position under its now-playing line
    /// when `t` is pressed, and hides it on `t` again, as `play` does.
    @Test func tInAttachShowsTheCueAtThePlayersPosition() throws {
        let (player, process) = try Self.pausedAtTwoSeconds()
        let t = player.library.t
        let attach = try TerminalSession(
            executable: t.podcli.executableURL, arguments: ["--home", t.home.path, "attach"],
            environment: player.environment)
        #expect(attach.waitForOutput(containing: "⏸"), "\(attach.output)")
        #expect(!attach.output.contains("Later words"))
        attach.type("t")
        #expect(attach.waitForOutput(containing: "\nBob: Later words."), "\(attach.output)")
        attach.type("t")
        #expect(attach.waitForOutput(containing: "\u{1B}[J"), "\(attach.output)")
        attach.type("q")
        #expect(try attach.waitUntilExit() == 0, "\(attach.output)")
        #expect(try t.run(["stop"]).status == 0)
        #expect(try process.waitUntilExit().status == 0)
    }
}
