import Foundation
import TestSupport
import Testing

/// `podcli man`: the page is generated from the same specs as `--help`, with the settings, files,
/// environment and exit codes, and renders without a warning.
@Suite struct ManCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func page() throws -> String {
        let result = try PodcliRunner().run(["man"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return result.stdout
    }

    /// The command names `podcli --help` lists, under every group heading.
    static func listedCommands() throws -> [String] {
        let help = try PodcliRunner().run(["--help"]).stdout
        let sections = help.components(separatedBy: "\n\n").filter {
            ["LIBRARY:", "PLAYBACK:", "REMOTE CONTROL:", "MAINTENANCE:", "OTHER:"].contains($0.prefix { $0 != "\n" })
        }
        #expect(sections.count == 5, "\(help)")
        return sections.flatMap { section in
            section.split(separator: "\n").dropFirst().compactMap { line in
                line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
            }
        }
    }

    @Test func thePageNamesEveryCommandHelpLists() throws {
        let page = try Self.page()
        let commands = try Self.listedCommands()
        #expect(commands.count > 40 && commands.contains("man") && commands.contains("help"))
        for command in commands {
            let escaped = command.replacingOccurrences(of: "-", with: "\\-")
            #expect(page.contains("\n\\fBpodcli \(escaped)\\fR"), "\(command)")
        }
        // And a group's subcommands.
        #expect(page.contains("\n\\fBpodcli queue add\\fR") && page.contains("\n\\fBpodcli config set\\fR"))
    }

    @Test(.requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "needs groff"))
    func groffRendersThePageWithoutAWarning() throws {
        let page = try Self.page()
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/groff"), arguments: ["-man", "-ww", "-Tutf8"],
            environment: ["PATH": "/usr/bin:/bin"], stdin: Data(page.utf8)
        ).waitUntilExit()
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("PODCLI(1)"))
    }

    @Test(.requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc"), "needs mandoc"))
    func mandocFindsNothingToLint() throws {
        let directory = try TemporaryDirectory(prefix: "podcli-man")
        let file = try directory.write(try Self.page(), to: "podcli.1")
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/mandoc"), arguments: ["-Tlint", file.path],
            environment: ["PATH": "/usr/bin:/bin"]
        ).waitUntilExit()
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }

    @Test func thePageDocumentsEverySettingExitCodeAndVariableTheCodeReads() throws {
        let page = try Self.page()
        let settings = try PodcliRunner().run(
            ["config", "list"], environment: ["PODCLI_HOME": TemporaryDirectory().path]
        )
        .stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(settings.count >= 32)
        for key in settings {
            #expect(page.contains("\\fB\(key.replacingOccurrences(of: "-", with: "\\-")) = "), "\(key)")
        }
        for code in [0, 1, 64, 65, 66, 69, 74, 75, 77] { #expect(page.contains(".TP\n\\fB\(code)\\fR\n"), "\(code)") }
        // Every variable the sources read by name.
        let sources = try FileManager.default.subpathsOfDirectory(atPath: Self.repository.path + "/Sources")
            .filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOfFile: Self.repository.path + "/Sources/" + $0, encoding: .utf8) }
            .joined()
        let read = try Regex(#"environment\["([A-Z_]+)"\]|(?:environmentVariable|marker) = "([A-Z_]+)""#)
        let names = Set(
            sources.matches(of: read).compactMap { ($0.output[1].substring ?? $0.output[2].substring).map(String.init) }
        )
        #expect(names.isSuperset(of: ["PODCLI_HOME", "PODCLI_DEVICE", "PODCLI_GPODDER_PASSWORD", "XDG_RUNTIME_DIR"]))
        let environment = try #require(
            page.components(separatedBy: ".SH \"ENVIRONMENT\"").last?
                .components(separatedBy: ".SH ").first)
        for name in names { #expect(environment.contains(name.replacingOccurrences(of: "-", with: "\\-")), "\(name)") }
    }

    /// The units the page shows are the ones scripts/install.sh installs.
    @Test func thePagesSystemdUnitsAreTheInstalledOnes() throws {
        let page = try Self.page()
        for name in ["podcli-sync.service", "podcli-sync.timer"] {
            let unit = try String(
                contentsOf: Self.repository.appendingPathComponent("scripts/systemd/" + name), encoding: .utf8)
            let literal = unit.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .map { $0.isEmpty ? "\\&" : $0.replacingOccurrences(of: "-", with: "\\-") }.joined(separator: "\n")
            #expect(page.contains(".nf\n" + literal + "\n.fi\n"), "\(name)")
        }
        #expect(page.contains(".nf\n17 * * * *  /usr/local/bin/podcli sync \\-\\-quiet\n.fi\n"))
    }
}
