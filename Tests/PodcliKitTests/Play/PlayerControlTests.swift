import Playback
import Testing

@testable import PodcliKit

/// The control socket's request lines, as `podcli speed`, `podcli sleep` and `attach` send them.
@Suite struct PlayerControlTests {
    @Test(arguments: [
        ("speed 1.5", PlayerCommand.setSpeed(1.5)),
        ("speed 1.53", .setSpeed(1.55)),
        ("speed 2x", .setSpeed(2)),
        ("speed +0.1", .changeSpeed(by: 0.1)),
        ("speed -0.25", .changeSpeed(by: -0.25)),
        ("sleep 20m", .setSleepTimer(.after(seconds: 1200))),
        ("sleep 90", .setSleepTimer(.after(seconds: 90))),
        ("sleep 1.5h", .setSleepTimer(.after(seconds: 5400))),
        ("sleep end", .setSleepTimer(.endOfEpisode)),
        ("sleep off", .setSleepTimer(nil)),
        ("sleep +5m", .extendSleepTimer(by: 300)),
        ("sleep cycle", .cycleSleepTimer),
        ("bookmark", .bookmark(note: nil, ticket: nil)),
        ("bookmark  the  quote  ", .bookmark(note: "the  quote", ticket: nil)),
    ])
    func requestsBecomeCommands(request: String, command: PlayerCommand) throws {
        #expect(try PlayerControl.command(for: request).get() == command)
    }

    @Test(arguments: ["speed 4", "speed 0.2", "speed fast", "speed +x", "sleep", "sleep soon", "sleep 2d", "sleep -5m"])
    func badValuesAreRefusedWithWhatIsExpected(request: String) {
        guard case .failure(let error) = PlayerControl.command(for: request) else {
            Issue.record("\(request) accepted")
            return
        }
        #expect(
            error.message.hasPrefix(request.hasPrefix("speed") ? "speed takes" : "sleep takes") || request == "sleep")
    }

    /// `attach` sends what a key asks for as a request the player reads back as the same command.
    @Test(arguments: [
        PlayerCommand.setSpeed(1.25), .changeSpeed(by: 0.1), .changeSpeed(by: -0.1), .setSleepTimer(nil),
        .setSleepTimer(.endOfEpisode), .setSleepTimer(.after(seconds: 900)), .extendSleepTimer(by: 300),
        .cycleSleepTimer, .bookmark(note: nil, ticket: nil), .bookmark(note: "a note", ticket: nil),
        .nextChapter, .previousChapter, .chaptersChanged,
    ])
    func aKeysRequestMeansItsCommand(command: PlayerCommand) throws {
        let request = try #require(PlayerControl.request(for: command, volume: 50))
        #expect(try PlayerControl.command(for: request).get() == command)
    }

    @Test func theSpeedAndSleepKeys() {
        let keymap = Keymap(skipBack: 15, skipForward: 30)
        #expect(keymap.command(for: .character("]")) == .changeSpeed(by: 0.1))
        #expect(keymap.command(for: .character("[")) == .changeSpeed(by: -0.1))
        #expect(keymap.command(for: .character("\\")) == .setSpeed(1))
        #expect(keymap.command(for: .character("z")) == .cycleSleepTimer)
        #expect(keymap.command(for: .character("b")) == .bookmark(note: nil, ticket: nil))
    }

    /// A note longer than a bookmark takes is refused, saying how long it may be.
    @Test func aBookmarksNoteHasALimit() throws {
        let longest = String(repeating: "é", count: PlayerControl.noteLimit)
        #expect(try PlayerControl.command(for: "bookmark " + longest).get() == .bookmark(note: longest, ticket: nil))
        #expect(
            PlayerControl.command(for: "bookmark " + longest + "e")
                == .failure(ControlRequestError("a bookmark's note is at most 1000 characters")))
    }

    @Test func theChapterKeys() {
        let keymap = Keymap(skipBack: 15, skipForward: 30)
        #expect(keymap.command(for: .character(">")) == .nextChapter)
        #expect(keymap.command(for: .character("<")) == .previousChapter)
    }
}
