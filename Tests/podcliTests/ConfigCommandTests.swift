import Foundation
import TestSupport
import Testing

/// `podcli config` and the configuration file every command reads.
@Suite struct ConfigCommandTests {
    @Test func setChangesOneLineAndKeepsTheRestOfTheFile() throws {
        let w = try FeedCommandTests.World()
        let t = w.t
        for title in ["Daily News", "Other Show", "Weekly Roundup"] {
            let file = title.split(separator: " ")[0].lowercased() + ".xml"
            let feed = try w.serve(file, FeedCommandTests.rss(title: title, items: [w.item(1, in: title)]))
            #expect(try t.run(["fetch", feed]).status == 0)
        }
        _ = try t.home.write("# my settings\njobs = 2   \n\n[feed \"Daily\"]\nkeep = 1\n", to: "config")
        #expect(try t.run(["config", "set", "jobs", "6"]).status == 0)
        #expect(try t.run(["config", "set", "disk-budget", "20G"]).status == 0)
        // The feed is named as everywhere: [feed "Daily"] is #1's section, whatever names it here.
        #expect(try t.run(["config", "set", "keep", "3", "--feed", "1"]).status == 0)
        #expect(try t.run(["config", "set", "max-size", "200M", "--feed", "other"]).status == 0)
        let text = try String(contentsOfFile: t.home.path + "/config", encoding: .utf8)
        #expect(
            text == """
                # my settings
                jobs = 6
                disk-budget = 20G

                [feed "Daily"]
                keep = 3

                [feed "Other Show"]
                max-size = 200M

                """)
        #expect(try t.run(["config", "get", "jobs"]).stdout == "6\n")
        for name in ["Daily", "daily news", "1", w.url("daily.xml")] {
            #expect(try t.run(["config", "get", "keep", "--feed", name]).stdout == "3\n", "\(name)")
        }
        #expect(try t.run(["config", "get", "max-size", "--feed", "2"]).stdout == "200M\n")
        #expect(try t.run(["config", "get", "keep"]).stdout == "all\n")
        #expect(try t.run(["config", "get", "min-free"]).stdout == "512M\n")
        let unknown = try t.run(["config", "get", "keep", "--feed", "Nightly"])
        #expect(unknown.status == 66, "\(unknown)")
        #expect(unknown.stderr.hasPrefix("podcli: no feed 'Nightly'"), "\(unknown)")

        #expect(try t.run(["config", "unset", "keep", "--feed", "daily news"]).status == 0)
        #expect(try t.run(["config", "get", "keep", "--feed", "1"]).stdout == "all\n")
        #expect(try t.run(["config", "unset", "jobs"]).status == 0)
        #expect(try t.run(["config", "get", "jobs"]).stdout == "4\n")
        let list = try t.run(["config", "list"])
        #expect(list.stdout.hasPrefix("protection = private\ndevice = default\n"), "\(list)")
        #expect(list.stdout.contains("disk-budget = 20G\n"))
        #expect(list.stdout.hasSuffix("[feed \"Other Show\"]\nmax-size = 200M\n"), "\(list)")

        // A section naming two feeds names neither: sync says so.
        _ = try t.home.write("download = none\n[feed \"o\"]\nkeep = 1\n", to: "config")
        let sync = try t.run(["sync"])
        #expect(
            sync.stderr.hasPrefix(
                "\(t.home.path)/config:2: [feed \"o\"] names 2 subscriptions; give more of the title, or the "
                    + "feed's number\n"), "\(sync)")
    }

    @Test func aBadValueIsRefusedAndNothingIsWritten() throws {
        let t = try CLITestCase()
        let bad = try t.run(["config", "set", "keep", "three"])
        #expect(bad.status == 64)
        #expect(bad.stderr == "podcli: keep must be a whole number from 1 to 100000 or all, not 'three'\n")
        #expect(!FileManager.default.fileExists(atPath: t.home.path + "/config"))
        let global = try t.run(["config", "set", "jobs", "3", "--feed", "Daily"])
        #expect(global.status == 64)
        #expect(global.stderr == "podcli: jobs is a setting for every feed, not one feed\n")
        // A password never reaches the file, nor the line that refuses it.
        let password = try t.run(["config", "set", "gpodder-server", "https://alice:hunter2@cloud.example/"])
        #expect(password.status == 64)
        #expect(
            password.stderr
                == "podcli: gpodder-server must be an http or https URL without a user or password in it, or none, "
                + "not 'https://alice:***@cloud.example/'\n")
        #expect(!FileManager.default.fileExists(atPath: t.home.path + "/config"))
        let unknown = try t.run(["config", "get", "colour"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "podcli: unknown setting 'colour' ('podcli config list' shows them all)\n")
    }

    @Test func mistakesInTheFileAreReportedWithTheFileAndLineByEveryCommand() throws {
        let t = try CLITestCase()
        let path = t.home.path + "/config"
        for (text, message) in [
            ("jobs = 4\nkeep = three\n", "\(path):2: keep must be a whole number from 1 to 100000 or all, not 'three'"),
            ("colour = blue\n", "\(path):1: unknown key 'colour'"),
            (
                "[feed \"Daily\"]\njobs = 2\n",
                "\(path):2: jobs must be a setting for every feed, not one feed (put it "
                    + "before any [feed] section), not '2'"
            ),
            ("[podcast]\n", "\(path):1: unknown section [podcast] (sections are [feed \"NAME\"])"),
            ("\n\njust words\n", "\(path):3: expected 'key = value' or '[feed \"NAME\"]'"),
            ("min-free = lots\n", "\(path):1: min-free must be a size such as 500M or 2G, not 'lots'"),
        ] {
            _ = try t.home.write(text, to: "config")
            for command in [["sync"], ["config", "list"], ["fetch", "http://127.0.0.1:9/feed.xml"]] {
                let result = try t.run(command)
                #expect(result.status == 64, "\(command) \(result)")
                #expect(result.stderr == "podcli: \(message)\n", "\(command)")
            }
        }
    }

    /// README's crontab line and systemd units, as written there.
    @Test func theREADMEsCrontabLineRunsAsWritten() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("17 * * * *") })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields.count >= 6)
        #expect(fields[5] == "/usr/local/bin/podcli")
        let t = try CLITestCase()
        let home = try TemporaryDirectory(prefix: "podcli-cron")
        // cron's environment: HOME and a short PATH, nothing else.
        let result = try RunningProcess(
            executable: t.podcli.executableURL, arguments: fields.dropFirst(6).map(String.init),
            environment: ["HOME": home.path, "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh"]
        ).waitUntilExit()
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/.local/state/podcli/sync.log"))
        #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/podcli/podcli.db"))
    }

    @Test(.requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "needs systemd"))
    func theREADMEsSystemdUnitsParse() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let directory = try TemporaryDirectory(prefix: "podcli-units")
        var names: [String] = []
        for block in readme.components(separatedBy: "```ini\n").dropFirst() {
            let text = block.components(separatedBy: "```")[0]
            guard let first = text.split(separator: "\n").first, first.hasPrefix("# ~/.config/systemd/user/") else {
                continue
            }
            let name = String(first.split(separator: "/").last!)
            _ = try directory.write(text, to: name)
            names.append(name)
        }
        #expect(names == ["podcli-sync.service", "podcli-sync.timer"])
        let verify = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/systemd-analyze"),
            arguments: ["verify"] + names.map { directory.path + "/" + $0 }, environment: [:]
        ).waitUntilExit()
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify)")
    }

    @Test func theREADMEDocumentsEverySetting() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let t = try CLITestCase()
        let keys = try t.run(["config", "list"]).stdout.split(separator: "\n").compactMap {
            $0.split(separator: " = ").first.map(String.init)
        }
        #expect(keys.count == 32)
        for key in keys { #expect(readme.contains("`\(key)`"), "\(key)") }
    }

    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")
}
