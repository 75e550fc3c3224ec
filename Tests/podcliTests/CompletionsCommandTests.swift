import Foundation
import TestSupport
import Testing

/// `podcli completions bash|zsh|fish` loaded by the real shells, and `podcli __complete`, which
/// their scripts ask for the library's feeds, episodes and settings. The built podcli, on PATH.
@Suite struct CompletionsCommandTests {
    /// A library of one feed, "Show", with `count` episodes (Episode 1 the oldest), and an
    /// environment whose PATH finds the built podcli.
    struct World {
        let w: FeedCommandTests.World
        let environment: [String: String]
        var home: String { w.t.home.path }

        init(episodes count: Int = 3, title: String = "Show") throws {
            let world = try FeedCommandTests.World()
            let items = (1...count).reversed().map { world.item($0) }
            let fetch = try world.t.run([
                "fetch", try world.serve("feed.xml", FeedCommandTests.rss(title: title, items: items)),
            ])
            #expect(fetch.status == 0, "\(fetch)")
            (w, environment) = (world, Self.environment(world.t.podcli))
        }

        static func environment(_ podcli: PodcliRunner) -> [String: String] {
            var environment = podcli.childEnvironment()
            let directory = podcli.executableURL.deletingLastPathComponent().path
            environment["PATH"] = directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            return environment
        }

        func script(_ shell: String) throws -> String {
            let result = try w.t.run(["completions", shell])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            return result.stdout
        }

        /// The episodes' numbers, newest first, as `list` shows them.
        func episodeNumbers() throws -> [String] { try w.episodes(["--all"]).map { "\($0["id"] as! Int)" } }
    }

    @Test func bashCompletesCommandsOptionsChoicesAndTheLibrarysEpisodes() throws {
        let world = try World()
        let script = try world.script("bash")
        func complete(_ words: String...) throws -> [String] {
            try CompletionShells.bash(script: script, words: words, environment: world.environment)
        }
        #expect(try complete("podcli", "pla") == ["play"])
        #expect(try complete("podcli", "sync", "--li") == ["--limit-rate"])
        #expect(try complete("podcli", "fetch", "--protection", "") == ["private", "open"])
        #expect(try complete("podcli", "play", "--skip-silence", "m") == ["mild", "medium"])
        #expect(try complete("podcli", "queue", "mo") == ["move"])
        // The library --home names on the line, newest first.
        let numbers = try world.episodeNumbers()
        #expect(numbers.count == 3)
        #expect(try complete("podcli", "--home", world.home, "play", "") == numbers)
        #expect(try complete("podcli", "--home", world.home, "list", "") == ["1"])
        #expect(try complete("podcli", "--home", world.home, "config", "get", "skip-s") == ["skip-silence"])
        // A setting's value: the words of its type, after its key (options between heeded).
        #expect(try complete("podcli", "config", "set", "skip-silence", "m") == ["mild", "medium"])
        #expect(try complete("podcli", "config", "set", "protection", "") == ["private", "open"])
        #expect(try complete("podcli", "config", "set", "skip-silence", "--feed", "1", "a") == ["aggressive"])
        #expect(try complete("podcli", "config", "set", "loudness", "") == ["off"])
        #expect(try complete("podcli", "config", "get", "skip-silence", "") == [])
        #expect(try complete("podcli", "completions", "") == ["bash", "zsh", "fish"])
    }

    /// `--option=value`, which readline splits at the `=`: the value completed, the global
    /// `--home=DIR` heeded.
    @Test func bashCompletesAValueWrittenWithItsOption() throws {
        let world = try World()
        let script = try world.script("bash")
        func complete(_ line: String) throws -> [String] {
            try CompletionShells.bash(script: script, line: line, environment: world.environment)
        }
        #expect(try complete("podcli fetch --protection=pr") == ["private"])
        #expect(try complete("podcli fetch --protection=") == ["private", "open"])
        #expect(try complete("podcli play --skip-silence=m") == ["mild", "medium"])
        #expect(try complete("podcli --home=\(world.home) play ") == (try world.episodeNumbers()))
        #expect(try complete("podcli --home=\(world.home) config get --feed=") == ["1"])
        #expect(try complete("podcli fetch --protection private --pro") == ["--protection"])
    }

    @Test(.requires(TestEnvironment.has(CompletionShells.zshPath), "needs zsh"))
    func zshCompletesACommandAndTheLibrarysEpisodes() throws {
        let world = try World()
        let script = try world.script("zsh")
        #expect(
            try CompletionShells.zsh(script: script, words: ["podcli", "pla"], environment: world.environment) == [
                "play"
            ])
        let episodes = try CompletionShells.zsh(
            script: script, words: ["podcli", "--home", world.home, "show", ""], environment: world.environment)
        #expect(episodes == (try world.episodeNumbers()))
        let values = try CompletionShells.zsh(
            script: script, words: ["podcli", "config", "set", "skip-silence", "a"], environment: world.environment)
        #expect(values == ["aggressive"])
    }

    @Test(.requires(TestEnvironment.has(CompletionShells.fishPath), "needs fish"))
    func fishCompletesACommandAndTheLibrarysEpisodesWithTheirTitles() throws {
        let world = try World()
        let script = try world.script("fish")
        #expect(
            try CompletionShells.fish(script: script, words: ["podcli", "pla"], environment: world.environment) == [
                "play"
            ])
        let episodes = try CompletionShells.fish(
            script: script, words: ["podcli", "--home", world.home, "show", ""], environment: world.environment,
            descriptions: true)
        let newest = try #require(try world.episodeNumbers().first)
        #expect(episodes.contains("\(newest)\tEpisode 3 (Show)"), "\(episodes)")
        let values = try CompletionShells.fish(
            script: script, words: ["podcli", "config", "set", "protection", "o"], environment: world.environment)
        #expect(values == ["open"])
    }

    @Test func completeListsTheNewestEpisodesWithTitlesAtMostAHundredAndAnyByItsNumber() throws {
        let world = try World(episodes: 120)
        let all = try world.w.t.run(["__complete", "episode"])
        #expect(all.status == 0, "\(all)")
        let lines = all.stdout.split(separator: "\n")
        #expect(lines.count == 100)
        let numbers = try world.episodeNumbers()
        #expect(lines.first == "\(numbers[0])\tEpisode 120 (Show)")
        #expect(lines.map { String($0.prefix { $0 != "\t" }) } == Array(numbers.prefix(100)))
        // A prefix finds the numbers it starts, old ones past the newest 100 too, newest first.
        let ones = try world.w.t.run(["__complete", "episode", "1"])
        let expected = numbers.filter { $0.hasPrefix("1") }
        #expect(expected.contains { !numbers.prefix(100).contains($0) })
        #expect(ones.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) } == expected, "\(ones)")
    }

    /// A feed's title reaches the terminal through the completion menu: its controls do not.
    @Test func completeShowsAFeedsTitleWithoutItsControlCharacters() throws {
        let world = try World(title: "Evil\u{9B}2J\u{202E}Show")
        let feeds = try world.w.t.run(["__complete", "feed"])
        #expect(feeds.status == 0, "\(feeds)")
        #expect(feeds.stdout == "1\tEvil 2J Show\n")
        let episodes = try world.w.t.run(["__complete", "episode"])
        #expect(episodes.stdout.contains("\tEpisode 3 (Evil 2J Show)\n"))
        #expect(!episodes.stdout.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E })
    }

    /// A private ALSA configuration, read through the child's HOME (`~/.asoundrc`; its own
    /// XDG_CONFIG_HOME too, so no other user configuration is read): the variables to run with.
    static func alsaEnvironment(_ configuration: String, in home: TemporaryDirectory) throws -> [String: String] {
        try home.write(configuration, to: ".asoundrc")
        return ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/.config"]
    }

    /// A playback device whose description has two lines, one for capture only, one named as a
    /// card's are, and `default` described anew (`null` is alsa-lib's own, described by it).
    static let testDevices = """
        pcm.podclitestsink {
            type null
            hint { show on; description "Podcli test sink
        its second line" }
        }
        pcm.!default {
            type null
            hint { show on; description "Podcli test default" }
        }
        namehint.pcm.podclitestsource "podclitestsource|Podcli capture only|IOIDInput"
        namehint.pcm.testcard "testcard:CARD=Podcli,DEV=0|Podcli test card"

        """

    /// ALSA's playback devices, after `default` and `null`, each once, with the first line of
    /// ALSA's description: what `play --device` can take on this machine.
    @Test func completeListsALSAsPlaybackDevicesAfterDefaultAndNull() throws {
        let t = try CLITestCase()
        let alsaHome = try TemporaryDirectory(prefix: "podcli-alsa")
        let environment = try Self.alsaEnvironment(Self.testDevices, in: alsaHome)
        let all = try t.run(["__complete", "device"], environment: environment)
        #expect(all.status == 0 && all.stderr.isEmpty, "\(all)")
        let lines = all.stdout.split(separator: "\n").map(String.init)
        let names = lines.map { String($0.prefix { $0 != "\t" }) }
        #expect(lines.first == "default\tPodcli test default", "\(all)")
        #expect(names.dropFirst().first == "null", "\(all)")
        #expect(Set(names).count == names.count, "\(all)")
        #expect(lines.contains("podclitestsink\tPodcli test sink"), "\(all)")
        #expect(!names.contains("podclitestsource"), "\(all)")
        // A prefix keeps those it starts.
        let prefixed = try t.run(["__complete", "device", "podcli"], environment: environment)
        #expect(prefixed.stdout == "podclitestsink\tPodcli test sink\n", "\(prefixed)")

        // And bash offers it after --device.
        let script = try t.run(["completions", "bash"]).stdout
        let shell = World.environment(t.podcli).merging(environment) { _, alsa in alsa }
        #expect(
            try CompletionShells.bash(
                script: script, words: ["podcli", "play", "--device", "podcli"], environment: shell)
                == ["podclitestsink"])
        // Written with the option, and past a card's `:` and `=`, where readline splits the word.
        #expect(
            try CompletionShells.bash(script: script, line: "podcli play --device=podclit", environment: shell) == [
                "podclitestsink"
            ])
        #expect(
            try CompletionShells.bash(
                script: script, line: "podcli play --device testcard:CARD=P", environment: shell) == ["Podcli,DEV=0"])
    }

    /// Completing must not fail the shell: with an ALSA configuration it cannot read, the two
    /// names podcli knows, and not a word of ALSA's complaints.
    @Test func completeOffersDefaultAndNullWhenALSACannotReadItsConfiguration() throws {
        let t = try CLITestCase()
        let alsaHome = try TemporaryDirectory(prefix: "podcli-alsa")
        let environment = try Self.alsaEnvironment("pcm.unfinished {\n    type null\n", in: alsaHome)
        let devices = try t.run(["__complete", "device"], environment: environment)
        #expect(devices.status == 0, "\(devices)")
        #expect(devices.stdout == "default\tALSA's default device\nnull\tplay silently\n", "\(devices)")
        #expect(devices.stderr.isEmpty, "\(devices)")
    }

    @Test func completeWithNoLibraryPrintsNothingAndMakesNone() throws {
        let t = try CLITestCase()
        for kind in ["episode", "feed"] {
            let result = try t.run(["__complete", kind])
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: t.home.path + "/podcli.db"))
        let settings = try t.run(["__complete", "setting", "skip-s"])
        #expect(settings.stdout == "skip-silence\tshorten silences while playing: off, mild, medium or aggressive\n")
        let bad = try t.run(["__complete", "epsiode"])
        #expect(bad.status == 64)
        #expect(
            bad.stderr.hasPrefix(
                "podcli: invalid value 'epsiode' for '<kind>': expected feed, episode, setting, device or setting-value (did you mean 'episode'?)\n"
            ), "\(bad)")
    }

    /// `config set KEY <Tab>`: the words KEY's type spells out, the default said so; for `device`
    /// what `play --device` offers; for a key podcli does not know, nothing and no failure.
    @Test func completeSettingValueOffersTheKeysValuesAndNothingForAnUnknownKey() throws {
        let t = try CLITestCase()
        let silence = try t.run(["__complete", "setting-value", "", "skip-silence"])
        #expect(silence.status == 0 && silence.stderr.isEmpty, "\(silence)")
        #expect(silence.stdout == "off\tthe default\nmild\t\nmedium\t\naggressive\t\n")
        let sizes = try t.run(["__complete", "setting-value", "n", "disk-budget"])
        #expect(sizes.stdout == "none\tthe default\n", "\(sizes)")

        let alsaHome = try TemporaryDirectory(prefix: "podcli-alsa")
        let environment = try Self.alsaEnvironment(Self.testDevices, in: alsaHome)
        let devices = try t.run(["__complete", "setting-value", "", "device"], environment: environment)
        #expect(devices.status == 0, "\(devices)")
        #expect(devices.stdout.hasPrefix("default\tPodcli test default\nnull\t"), "\(devices)")
        #expect(devices.stdout == (try t.run(["__complete", "device"], environment: environment)).stdout)

        for typed in [["", "skip-silent"], [""], ["", "jobs"]] {
            let none = try t.run(["__complete", "setting-value"] + typed)
            #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.isEmpty, "\(typed): \(none)")
        }
    }
}
