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
