import Arguments
import Foundation
import TestSupport
import Testing

/// The scripts `CompletionScript` generates, loaded by the real shells and asked to complete
/// command lines of the small podcli-like tree.
@Suite struct CompletionScriptTests {
    typealias Spec = PodcliSpec

    /// A shell, and how to drive it.
    struct Shell: CustomStringConvertible, Sendable {
        let kind: CompletionShell
        let path: String
        let complete: @Sendable (String, [String], [String: String]) throws -> [String]
        var name: String { kind.rawValue }
        var description: String { name }

        func generate(_ root: CommandSpec) -> String {
            CompletionScript.script(
                for: kind, root: root, commandName: "podcli", globalOptions: [Spec.home], globalFlags: [Spec.quiet])
        }
    }

    static let shells = [
        Shell(kind: .bash, path: CompletionShells.bashPath) {
            try CompletionShells.bash(script: $0, words: $1, environment: $2)
        },
        Shell(kind: .zsh, path: CompletionShells.zshPath) {
            try CompletionShells.zsh(script: $0, words: $1, environment: $2)
        },
        Shell(kind: .fish, path: CompletionShells.fishPath) {
            try CompletionShells.fish(script: $0, words: $1, environment: $2)
        },
    ]

    /// A stand-in `podcli` first on PATH, a shell script that prints `script`'s answer to a
    /// script's `__complete`; the directory holding it lives as long as the caller keeps it.
    static func standIn(answering script: String) throws -> (TemporaryDirectory, [String: String]) {
        let bin = try TemporaryDirectory(prefix: "completion-bin")
        let podcli = try bin.write(script, to: "podcli")
        #expect(chmod(podcli.path, 0o755) == 0)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return (bin, environment)
    }

    /// The shells here (every one under CI=true, where a missing shell is a failure).
    static var installedShells: [Shell] { shells.filter { TestEnvironment.has($0.path) || TestEnvironment.isCI } }

    @Test(arguments: installedShells)
    func completesCommandsOptionsAndChoicesButNoHiddenCommand(shell: Shell) throws {
        let script = shell.generate(Spec.parser.root)
        let environment = ProcessInfo.processInfo.environment
        func complete(_ words: String...) throws -> Set<String> { Set(try shell.complete(script, words, environment)) }
        #expect(try complete("podcli", "qu") == ["queue"])
        #expect(try complete("podcli", "--home", "/tmp", "queue", "") == ["add", "rm"])
        #expect(try complete("podcli", "fetch", "--pro") == ["--protection"])
        #expect(try complete("podcli", "fetch", "--protection", "") == ["private", "open"])
        #expect(try complete("podcli", "fetch", "--protection", "o") == ["open"])
        #expect(
            try complete("podcli", "list", "-") == [
                "-n", "--limit", "--json", "--home", "-q", "--quiet", "-h", "--help",
            ])
        // (fish falls back to fuzzy matches when nothing starts with the word.)
        #expect(try !complete("podcli", "noti").contains("notify-new"))
        #expect(try complete("podcli", "he") == ["help"])
        // `help` takes the commands' names, as deep as they go, and nothing past them.
        #expect(try complete("podcli", "help", "qu") == ["queue"])
        #expect(try complete("podcli", "help", "queue", "") == ["add", "rm"])
        #expect(try complete("podcli", "help", "queue", "add", "").isEmpty)
    }

    /// A dynamic kind is asked of `podcli __complete KIND PREFIX TYPED...`, with the global options
    /// given on the line and the positionals typed before (here a stand-in podcli that answers
    /// with its own arguments).
    @Test(arguments: installedShells)
    func aDynamicValueIsAskedOfTheCommandWithTheGlobalOptionsAndThePositionalsGiven(shell: Shell) throws {
        let (bin, environment) = try Self.standIn(
            answering: "#!/bin/sh\nIFS=_\nprintf '%s\\tasked\\n' \"1$*\" 12 13 4\n")
        defer { withExtendedLifetime(bin) {} }
        let script = shell.generate(Spec.parser.root)
        let offered = try shell.complete(
            script, ["podcli", "--home", "/lib", "queue", "add", "9", "-q", "8", "1"], environment)
        #expect(Set(offered) == ["1--home_/lib___complete_episode_1_9_8", "12", "13"])
    }

    /// bash: readline splits a word at `=` and `:` (`--protection=o` comes as `--protection`, `=`,
    /// `o`), and a reply replaces only what follows the last of them.
    @Test func bashCompletesAValueWrittenWithItsOptionOrHoldingAColon() throws {
        let (bin, environment) = try Self.standIn(
            answering: "#!/bin/sh\nprintf '%s\\tasked\\n' \"hw:CARD=One,DEV=0\" \"hw:CARD=Two\" \"$2\"\n")
        defer { withExtendedLifetime(bin) {} }
        let script = Self.shells[0].generate(Spec.parser.root)
        func complete(_ line: String) throws -> [String] {
            try CompletionShells.bash(script: script, line: line, environment: environment)
        }
        #expect(try complete("podcli fetch --protection=o") == ["open"])
        #expect(try complete("podcli fetch --protection=") == ["private", "open"])
        #expect(try complete("podcli fetch --unknown=") == [])
        #expect(try complete("podcli queue add hw:CARD=O") == ["One,DEV=0"])
        #expect(try complete("podcli queue add hw:") == ["CARD=One,DEV=0", "CARD=Two"])
        // A global option written with its value is passed on as two words.
        #expect(try complete("podcli --home=/lib queue add /") == ["/lib"])
    }

    /// zsh completes the value after the `=` (what comes before stays); fish replaces the whole
    /// word, so its candidates carry the option.
    @Test(arguments: installedShells.filter { $0.kind != .bash })
    func aValueWrittenWithItsOptionIsCompleted(shell: Shell) throws {
        let (bin, environment) = try Self.standIn(answering: "#!/bin/sh\nprintf '%s\\tasked\\n' \"$2\"\n")
        defer { withExtendedLifetime(bin) {} }
        let script = shell.generate(Spec.parser.root)
        func complete(_ words: String...) throws -> [String] {
            try shell.complete(script, words, environment).sorted()
        }
        let written = shell.kind == .fish ? "--protection=" : ""
        #expect(try complete("podcli", "fetch", "--protection=o") == [written + "open"])
        #expect(try complete("podcli", "fetch", "--protection=") == [written + "open", written + "private"])
        #expect(try complete("podcli", "fetch", "--unknown=").isEmpty)
        // A global option written with its value is passed on as two words.
        #expect(try complete("podcli", "--home=/lib", "queue", "add", "/") == ["/lib"])
    }

    /// Quotes, dollars and backslashes in help texts stay text in every script.
    @Test(arguments: installedShells)
    func helpTextsAreQuotedForTheShell(shell: Shell) throws {
        let tricky = #"It's "$HOME" `date` \ $(exit 3); done"#
        let root = CommandSpec(
            name: "podcli", abstract: "Root.",
            subcommands: [
                CommandSpec(
                    name: "say", abstract: tricky,
                    options: [Option("words", valueName: "w", help: tricky, domain: .choices(["a-b", "c"]))])
            ])
        let script = shell.generate(root)
        let environment = ProcessInfo.processInfo.environment
        #expect(try shell.complete(script, ["podcli", "sa"], environment) == ["say"])
        #expect(Set(try shell.complete(script, ["podcli", "say", "--words", ""], environment)) == ["a-b", "c"])
        if shell.name == "fish" {
            let described = try CompletionShells.fish(
                script: script, words: ["podcli", "sa"], environment: environment, descriptions: true)
            #expect(described == ["say\t" + tricky])
        }
    }
}
