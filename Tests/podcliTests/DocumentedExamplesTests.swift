import Foundation
import TestSupport
import Testing

/// Every podcli command line the documentation shows (the man page's EXAMPLES, which carry each
/// command's examples and the cron and systemd lines, and the README's shell blocks) is one the
/// built podcli accepts: run against an empty library, none is a usage error. Each runs for
/// real; with nothing subscribed and every transfer sent to a closed port, they fail fast, and
/// any failure but a usage error is fine.
@Suite struct DocumentedExamplesTests {
    /// A cron line's five time fields: `17`, `*`, `*/30`, `1-5`, `0,30`.
    static func isCronField(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isNumber || "*/,-".contains($0) }
    }

    /// The words of a shell line as the shell splits them: quotes removed, a `#` word ending it.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word!.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == " " || character == "\t" {
                if let finished = word { words.append(finished) }
                word = nil
            } else if character == "#" && word == nil {
                break
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let finished = word { words.append(finished) }
        return words
    }

    /// The podcli invocations on a documented line (`a && b`, `a | man -l -`), each without its
    /// redirections, after a cron schedule or a unit's `ExecStart=`: the arguments after `podcli`.
    static func invocations(in line: String) -> [[String]] {
        var words = shellWords(line)
        if words.count > 5, words.prefix(5).allSatisfy(isCronField) { words.removeFirst(5) }
        if let first = words.first, first.hasPrefix("ExecStart=") { words[0] = String(first.dropFirst(10)) }
        if words.first == "/usr/bin/env" { words.removeFirst() }
        var invocations: [[String]] = []
        for segment in words.split(whereSeparator: { ["&&", "||", ";", "|"].contains($0) }) {
            guard let command = segment.first, command == "podcli" || command.hasSuffix("/podcli") else { continue }
            let arguments = segment.dropFirst().prefix { !($0.hasPrefix(">") || $0.hasPrefix("2>") || $0 == "<") }
            invocations.append(Array(arguments))
        }
        return invocations
    }

    /// The man page's literal blocks (`.nf` to `.fi`), unescaped.
    static func manExamples() throws -> [String] {
        let page = try PodcliRunner().run(["man"]).stdout
        var lines: [String] = []
        var literal = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == ".nf" {
                literal = true
            } else if line == ".fi" {
                literal = false
            } else if literal {
                lines.append(
                    line.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\&", with: "")
                        .replacingOccurrences(of: "\\e", with: "\\"))
            }
        }
        return lines
    }

    /// The README's ```sh blocks.
    static func readmeExamples() throws -> [String] {
        let readme = try String(
            contentsOf: ManCommandTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
        var lines: [String] = []
        var inShell = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inShell = line == "```sh" } else if inShell { lines.append(String(line)) }
        }
        return lines
    }

    @Test func theInvocationsOfALineAreFoundAsTheShellWouldRunThem() {
        #expect(
            Self.invocations(in: "podcli list -s 'rust async' --all  # both words") == [
                ["list", "-s", "rust async", "--all"]
            ])
        #expect(
            Self.invocations(in: "podcli search --limit 5 darknet diaries && podcli fetch --result 1")
                == [["search", "--limit", "5", "darknet", "diaries"], ["fetch", "--result", "1"]])
        #expect(Self.invocations(in: "podcli man | man -l -") == [["man"]])
        #expect(Self.invocations(in: "podcli export > subscriptions.opml") == [["export"]])
        #expect(Self.invocations(in: "17 * * * *  /usr/local/bin/podcli sync --quiet") == [["sync", "--quiet"]])
        #expect(Self.invocations(in: "ExecStart=/usr/bin/env podcli sync --quiet") == [["sync", "--quiet"]])
        #expect(Self.invocations(in: "Description=Run podcli sync every hour").isEmpty)
        #expect(Self.invocations(in: "playerctl -p podcli play-pause").isEmpty)
    }

    @Test func everyDocumentedCommandLineIsAcceptedByPodcli() throws {
        let home = try TemporaryDirectory(prefix: "podcli-examples")
        let closed = try ClosedLoopbackPort()
        // Bound, so no server the suite starts meanwhile gets the port, until the last run.
        defer { withExtendedLifetime(closed) {} }
        let proxy = "http://127.0.0.1:\(closed.port)"
        let podcli = try PodcliRunner.locateExecutable()
        let lines = try Self.manExamples() + Self.readmeExamples()
        let invocations = lines.flatMap(Self.invocations)
        // The man page's examples alone are more than a dozen: a parse that found none fails here.
        #expect(invocations.count > 40, "\(invocations)")
        for arguments in invocations {
            let expanded = arguments.map { $0.hasPrefix("~/") ? home.path + $0.dropFirst() : $0 }
            let result = try RunningProcess(
                executable: podcli, arguments: expanded,
                environment: [
                    "HOME": home.path, "PATH": "/usr/bin:/bin", "http_proxy": proxy, "https_proxy": proxy,
                    "PODCLI_DEVICE": "null",
                ],
                workingDirectory: home.url
            ).waitUntilExit(timeout: 60)
            #expect(!Self.isUsageError(result), "podcli \(arguments): \(result)")
        }
        // What a usage error looks like, so the check above can fail.
        #expect(Self.isUsageError(try PodcliRunner().run(["fetch", "--protection", "secret", "x"])))
    }

    /// Exit 64 with the usage line; a bad config value is 64 too, but names its file instead.
    static func isUsageError(_ result: ProcessResult) -> Bool {
        result.status == 64 && result.stderr.contains("\nUsage: podcli")
    }
}
