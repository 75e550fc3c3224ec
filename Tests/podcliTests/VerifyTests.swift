import Foundation
import TestSupport
import Testing

/// `podcli verify [--repair]` against files changed behind podcli's back.
@Suite struct VerifyTests {
    /// A library with one downloaded episode; returns the file's path and content.
    private func downloaded(_ t: CLITestCase) throws -> (path: String, data: Data, url: String) {
        let (url, data) = try t.source("kept.mp3")
        #expect(try t.run(["fetch", url]).status == 0)
        return (try t.show("1")["path"] as! String, data, url)
    }

    @Test func anUntouchedLibraryVerifies() throws {
        let t = try CLITestCase()
        _ = try downloaded(t)
        let result = try t.run(["verify"])
        #expect(result.status == 0)
        #expect(result.stdout == "Verified 1 file: all match their records\n")
    }

    @Test func aChangedModeIsReportedAndRepaired() throws {
        let t = try CLITestCase()
        let (path, _, _) = try downloaded(t)
        chmod(path, 0o666)
        let uuid = try t.show("1")["uuid"] as! String
        let check = try t.run(["verify", "1"])
        #expect(check.status == 1)
        #expect(
            check.stdout == """
                #1 episodes/\(uuid)/kept.mp3: mode 0666, recorded 0600
                Verified 1 file: 1 differs

                """)
        #expect(check.stderr == "podcli: 1 file differs from the record; 'podcli verify --repair' can fix them\n")
        let repair = try t.run(["verify", "--repair"])
        #expect(repair.status == 0, "\(repair)")
        #expect(repair.stdout.contains("#1 episodes/\(uuid)/kept.mp3: repaired"))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try t.run(["verify"]).status == 0)
    }

    @Test func twoChangedFilesAreCountedInThePlural() throws {
        let t = try CLITestCase()
        var paths: [String] = []
        for name in ["one.mp3", "two.mp3"] {
            let (url, _) = try t.source(name)
            #expect(try t.run(["fetch", url]).status == 0)
            paths.append(try t.show("\(paths.count + 1)")["path"] as! String)
        }
        for path in paths { chmod(path, 0o644) }
        let check = try t.run(["verify"])
        #expect(check.status == 1)
        #expect(check.stdout.hasSuffix("Verified 2 files: 2 differ\n"), "\(check)")
        #expect(check.stderr == "podcli: 2 files differ from the record; 'podcli verify --repair' can fix them\n")
    }

    @Test func corruptAndMissingFilesAreDownloadedAgain() throws {
        let t = try CLITestCase()
        let (path, data, _) = try downloaded(t)
        var corrupt = data
        corrupt[1000] ^= 0xFF
        try corrupt.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let check = try t.run(["verify"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("SHA-256"))
        let repair = try t.run(["verify", "--repair"])
        #expect(repair.status == 0, "\(repair)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)

        try FileManager.default.removeItem(atPath: path)
        #expect(try t.run(["verify"]).stdout.contains("kept.mp3: missing"))
        #expect(try t.run(["verify", "--repair"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
        #expect(try t.run(["verify"]).status == 0)
    }
}

/// `list`, `show`, `rm` and what every command shares: usage errors, --home, PODCLI_HOME.
@Suite struct LibraryCommandTests {
    @Test func listShowsEpisodesAsATableOrJSON() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("listed.mp3", size: 2048)
        let before = Self.today()
        #expect(try t.run(["fetch", url]).status == 0)
        let list = try t.run(["list"])
        // An episode fetched by its URL is dated by when it was fetched (local time); its length is
        // what decoding it measured (2 KiB of MPEG frames: under a second).
        let expected = [before, Self.today()].map { day in
            """
            ID  DATE        STATE       LENGTH  SIZE     FORMAT  TITLE
            1   \(day)  downloaded  0:00    2.0 KiB  MP3     listed

            """
        }
        #expect(expected.contains(list.stdout), "\(list.stdout)")
        let json = try JSONSerialization.jsonObject(with: t.run(["list", "--json"]).stdoutData) as? [[String: Any]]
        #expect(json?.count == 1)
        #expect(json?.first?["title"] as? String == "listed")
    }

    @Test func rmDeletesFilesAndRecordsTogether() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("doomed.mp3")
        #expect(try t.run(["fetch", url]).status == 0)
        let uuid = try t.show("1")["uuid"] as! String
        let removed = try t.run(["rm", "1"])
        #expect(removed.status == 0)
        #expect(removed.stdout == "Removed #1 doomed\n")
        #expect(!FileManager.default.fileExists(atPath: t.home.path + "/episodes/" + uuid))
        let show = try t.run(["show", "1"])
        #expect(show.status == 66)
        #expect(show.stderr == "podcli: no episode '1': give its number or a UUID prefix (see 'podcli list')\n")
    }

    @Test func processesOpeningANewLibraryTogetherAllSucceed() throws {
        // Each one creates or upgrades the database; every migration must be applied once.
        // Several rounds, since the race is a matter of timing.
        for _ in 0..<4 {
            let t = try CLITestCase()
            let processes = try (0..<8).map { _ in try t.podcli.start(["--home", t.home.path, "list"]) }
            for process in processes {
                let result = try process.waitUntilExit()
                #expect(result.status == 0, "\(result)")
            }
        }
    }

    static func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    @Test func usageErrorsPrintThreeLinesAndExit64() throws {
        let t = try CLITestCase()
        let result = try t.run(["list", "--jsno"])
        #expect(result.status == 64)
        #expect(
            result.stderr == """
                podcli: unknown option '--jsno' (did you mean '--json'?)
                Usage: podcli list [<options>] [<feed>]
                See 'podcli list --help' for more information.

                """)
        let missing = try t.run(["fetch"])
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("podcli: missing expected argument '<url>'"))
    }

    @Test func helpAndVersionGoToStdoutAndSucceed() throws {
        let t = try CLITestCase()
        let help = try t.podcli.run(["fetch", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: Subscribe to a feed, or download an episode from its audio URL."))
        #expect(help.stdout.contains("--protection <class>"))
        let version = try t.podcli.run(["--version"])
        #expect(version.stdout == "podcli 0.1.0\n")
    }

    @Test func theDataDirectoryComesFromHomeOptionEnvironmentOrXDG() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("placed.mp3", size: 4096)
        let viaEnvironment = try t.podcli.run(
            ["fetch", url, "--quiet"], environment: ["PODCLI_HOME": t.home.path + "/env"])
        #expect(viaEnvironment.status == 0)
        #expect(FileManager.default.fileExists(atPath: t.home.path + "/env/podcli.db"))
        let viaOptionAfter = try t.podcli.run(["list", "--home", t.home.path + "/env"])
        #expect(viaOptionAfter.stdout.contains("placed"))
        let viaXDG = try t.podcli.run(["list"], environment: ["XDG_DATA_HOME": t.home.path + "/xdg"])
        #expect(viaXDG.status == 0)
        #expect(FileManager.default.fileExists(atPath: t.home.path + "/xdg/podcli/podcli.db"))
    }

    @Test func aDatabaseFromANewerPodcliIsRefused() throws {
        let t = try CLITestCase()
        #expect(try t.run(["list"]).status == 0)
        let sqlite = "/usr/bin/python3"
        let bump = try RunningProcess(
            executable: URL(fileURLWithPath: sqlite),
            arguments: [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version=42'); c.commit()",
                t.home.path + "/podcli.db",
            ],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        #expect(bump.status == 0, "\(bump)")
        let result = try t.run(["list"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("was written by a newer podcli (schema 42"))
    }
}
