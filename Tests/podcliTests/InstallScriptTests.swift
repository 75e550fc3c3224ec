import Foundation
import TestSupport
import Testing

/// scripts/install.sh into a temporary prefix, with the tests' podcli (no release build): the
/// exact files, a working installed `podcli man`, and an uninstall that leaves nothing of it and
/// nothing else touched.
@Suite struct InstallScriptTests {
    static let script = ManCommandTests.repository.appendingPathComponent("scripts/install.sh")

    func install(_ arguments: [String]) throws -> ProcessResult {
        try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/bash"), arguments: [Self.script.path] + arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
        ).waitUntilExit(timeout: 60)
    }

    static func files(under directory: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory).sorted()
    }

    @Test func installsExactlyItsFilesAndUninstallsThem() throws {
        let prefix = try TemporaryDirectory(prefix: "podcli-install")
        // Someone else's files in the directories it shares: never touched.
        _ = try prefix.write("other", to: "bin/other-tool")
        _ = try prefix.write("other", to: "share/man/man1/other.1")
        let before = try Self.files(under: prefix.path)
        let binary = try PodcliRunner.locateExecutable().path

        let installed = try install(["--prefix", prefix.path, "--binary", binary])
        #expect(installed.status == 0, "\(installed)")
        let ours = [
            "bin/podcli", "lib", "lib/podcli", "lib/podcli/install-manifest",
            "share/bash-completion", "share/bash-completion/completions", "share/bash-completion/completions/podcli",
            "share/fish", "share/fish/vendor_completions.d", "share/fish/vendor_completions.d/podcli.fish",
            "share/man/man1/podcli.1", "share/systemd", "share/systemd/user", "share/systemd/user/podcli-sync.service",
            "share/systemd/user/podcli-sync.timer", "share/zsh", "share/zsh/vendor-completions",
            "share/zsh/vendor-completions/_podcli",
        ]
        #expect(try Self.files(under: prefix.path) == (before + ours).sorted())

        let podcli = prefix.path + "/bin/podcli"
        let man = try PodcliRunner(executableURL: URL(fileURLWithPath: podcli)).run(["man"])
        #expect(man.status == 0 && man.stdout.hasPrefix(".TH PODCLI 1 "), "\(man)")
        let page = try String(contentsOfFile: prefix.path + "/share/man/man1/podcli.1", encoding: .utf8)
        #expect(page.contains("\n.SH \"EXIT STATUS\"\n"))
        let bash = try String(
            contentsOfFile: prefix.path + "/share/bash-completion/completions/podcli", encoding: .utf8)
        let printed = try PodcliRunner().run(["completions", "bash"]).stdout
        #expect(!bash.isEmpty && bash == printed)
        let service = try String(
            contentsOfFile: prefix.path + "/share/systemd/user/podcli-sync.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=\(podcli) sync --quiet\n"))

        let removed = try install(["--prefix", prefix.path, "--uninstall"])
        #expect(removed.status == 0, "\(removed)")
        #expect(try Self.files(under: prefix.path) == before)
    }

    static let shellsAndTools: ConditionTrait = .requires(
        FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion")
            && ["/usr/bin/man", CompletionShells.zshPath, CompletionShells.fishPath].allSatisfy(TestEnvironment.has),
        "needs bash-completion, man-db, zsh and fish")

    /// A user's home made from Debian's /etc/skel files, with the `fpath` line install.sh's header
    /// gives in ~/.zshrc, and podcli installed into its ~/.local: the prefix.
    func installForAUser() throws -> (home: TemporaryDirectory, prefix: String) {
        let home = try TemporaryDirectory(prefix: "podcli-home")
        for file in [".profile", ".bashrc"] {
            try FileManager.default.copyItem(atPath: "/etc/skel/" + file, toPath: home.path + "/" + file)
        }
        _ = try home.write(
            "fpath+=(~/.local/share/zsh/vendor-completions)\nautoload -Uz compinit && compinit\n", to: ".zshrc")
        let prefix = home.path + "/.local"
        let installed = try install(["--prefix", prefix, "--binary", try PodcliRunner.locateExecutable().path])
        #expect(installed.status == 0, "\(installed)")
        return (home, prefix)
    }

    /// New shells started as a user's would be: bash through bash-completion's loader at the
    /// first Tab, zsh from the `fpath` line, fish from its vendor directory; `man` finds the page
    /// beside `~/.local/bin`, which Debian's ~/.profile puts on PATH.
    @Test(Self.shellsAndTools)
    func aNewLoginShellCompletesPodcliAndManFindsItsPage() throws {
        let (home, prefix) = try installForAUser()

        func shell(_ path: String, _ arguments: [String], path searchPath: String = "/usr/bin:/bin") throws -> String {
            let result = try RunningProcess(
                executable: URL(fileURLWithPath: path), arguments: arguments,
                environment: ["HOME": home.path, "PATH": searchPath, "TERM": "dumb"]
            ).waitUntilExit(timeout: 60)
            #expect(result.status == 0, "\(path) \(arguments): \(result)")
            return result.stdout
        }
        // What readline does at the first Tab after `podcli`: the default completer (bash-completion's
        // loader) finds the script by the command's name; then `podcli pla<Tab>` as in the shell.
        let bash = try shell(
            CompletionShells.bashPath,
            [
                "--login", "-i", "-c",
                #"""
                type -P podcli
                loader=$(complete -p -D | sed -E 's/.* -F ([^ ]+) .*/\1/')
                "$loader" podcli "" podcli
                completer=$(complete -p podcli | sed -E 's/.* -F ([^ ]+) .*/\1/')
                COMP_WORDS=(podcli pla) COMP_CWORD=1 COMP_LINE="podcli pla" COMP_POINT=10 COMPREPLY=()
                "$completer" podcli pla podcli
                printf '%s\n' "${COMPREPLY[@]}"
                man -w podcli
                """#,
            ])
        #expect(bash == "\(prefix)/bin/podcli\nplay\n\(prefix)/share/man/man1/podcli.1\n")

        // zsh and fish read no ~/.profile: PATH as the session gives it.
        let sessionPath = prefix + "/bin:/usr/bin:/bin"
        let zsh = try shell(CompletionShells.zshPath, ["-i", "-c", "print -r -- $_comps[podcli]"], path: sessionPath)
        #expect(zsh == "_podcli\n")
        let fish = try shell(
            CompletionShells.fishPath, ["--login", "-c", "complete -C 'podcli pla'"], path: sessionPath)
        #expect(fish.hasPrefix("play\t"), "\(fish)")
    }

    /// What a person sees: in each shell on a terminal, `podcli config get prot` and a Tab become
    /// `protection` (the installed podcli asked for its settings), and Enter prints its value.
    @Test(Self.shellsAndTools)
    func aTabOnATerminalCompletesWithTheInstalledPodcli() throws {
        let (home, prefix) = try installForAUser()
        let shells = [
            (CompletionShells.bashPath, ["--login", "-i"], "/usr/bin:/bin"),
            (CompletionShells.zshPath, ["-i"], prefix + "/bin:/usr/bin:/bin"),
            (CompletionShells.fishPath, ["-i"], prefix + "/bin:/usr/bin:/bin"),
        ]
        for (shell, arguments, path) in shells {
            // setsid -c: the terminal becomes the shell's controlling one, as a login's is (fish
            // will not read keys without).
            let terminal = try TerminalSession(
                executable: URL(fileURLWithPath: "/usr/bin/setsid"), arguments: ["-c", shell] + arguments,
                environment: ["HOME": home.path, "PATH": path, "TERM": "xterm"])
            terminal.type("podcli config get prot\t")
            // "ection" was never typed: the completion wrote it.
            #expect(terminal.waitForOutput(containing: "ection", timeout: 30), "\(shell): \(terminal.output)")
            terminal.type("\n")
            // (Nothing typed says "private": podcli printed it.)
            #expect(terminal.waitForOutput(containing: "private", timeout: 30), "\(shell): \(terminal.output)")
            terminal.type("exit\n")
            #expect(try terminal.waitUntilExit(timeout: 20) == 0, "\(shell): \(terminal.output)")
        }
    }

    @Test func aBinaryWithoutCompletionsIsRefusedBeforeAnythingIsInstalled() throws {
        let prefix = try TemporaryDirectory(prefix: "podcli-install")
        let result = try install(["--prefix", prefix.path, "--binary", "/bin/false"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot print its bash completions"), "\(result)")
        #expect(try Self.files(under: prefix.path).isEmpty)
    }

    @Test func uninstallWithoutAnInstallSaysSoAndRemovesNothing() throws {
        let prefix = try TemporaryDirectory(prefix: "podcli-install")
        _ = try prefix.write("mine", to: "bin/podcli")
        let result = try install(["--prefix", prefix.path, "--uninstall"])
        #expect(result.status == 1 && result.stderr.contains("install-manifest is missing"), "\(result)")
        #expect(try Self.files(under: prefix.path) == ["bin", "bin/podcli"])
    }

    @Test func aManifestLineReachingOutsideThePrefixIsRefused() throws {
        let prefix = try TemporaryDirectory(prefix: "podcli-install")
        let outside = try TemporaryDirectory(prefix: "podcli-outside")
        _ = try outside.write("keep", to: "precious")
        _ = try prefix.write("f ../\(outside.url.lastPathComponent)/precious\n", to: "lib/podcli/install-manifest")
        let result = try install(["--prefix", prefix.path, "--uninstall"])
        #expect(result.status == 1 && result.stderr.contains("unexpected line"), "\(result)")
        #expect(FileManager.default.fileExists(atPath: outside.path + "/precious"))
    }
}
