import Foundation
import PodcliKit
import Terminal
import TestSupport
import Testing

/// What `podcli help COMMAND` tells, where it has gone wrong before: play's key list left out
/// keys the player knows, and fetch's said only MPEG audio was accepted. The built podcli.
@Suite struct CommandHelpTests {
    /// The keys play's help lists, read from its key table: one row a key (or two), in the
    /// column before the action.
    static func listedKeys(in help: String) -> Set<String> {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Keys") }) else { return [] }
        let rows = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
        return Set(rows.flatMap { $0.dropFirst(2).prefix(10).split(separator: " ").map(String.init) })
    }

    /// How the help names a key.
    static func name(of key: Key) -> String? {
        switch key {
        case .space: return "space"
        case .left: return "←"
        case .right: return "→"
        case .up: return "↑"
        case .down: return "↓"
        case .character(let character): return String(character)
        default: return nil
        }
    }

    @Test func playsHelpListsEveryKeyThePlayerKnowsAndNoOther() throws {
        let help = try CLITestCase().podcli.run(["help", "play"])
        #expect(help.status == 0, "\(help)")
        let keymap = Keymap(skipBack: 15, skipForward: 30)
        let printable = (0x21...0x7E).map { Key.character(Character(UnicodeScalar($0))) }
        let candidates: [Key] = [.space, .left, .right, .up, .down] + printable
        // `t` is the now-playing line's own key (the transcript's cue), not a player command.
        let known = Set(candidates.filter { keymap.command(for: $0) != nil }.compactMap(Self.name)).union(["t"])
        #expect(known.isSuperset(of: ["<", ">", "[", "]", "z", "b"]), "\(known)")
        #expect(Self.listedKeys(in: help.stdout) == known, "\(help.stdout)")
    }

    @Test func fetchsHelpNamesEveryAudioFormatItAccepts() throws {
        let help = try CLITestCase().podcli.run(["help", "fetch"])
        #expect(help.status == 0, "\(help)")
        for format in ["MP3", "M4A", "AAC", "Ogg", "Opus", "Vorbis", "FLAC"] {
            #expect(help.stdout.contains(format), "\(format): \(help.stdout)")
        }
        #expect(!help.stdout.contains("MPEG audio"), "\(help.stdout)")
    }
}
