import Foundation
import TestSupport
import Testing

/// `podcli fetch` end to end: a real process, real libcurl, the loopback fault server, a real
/// SQLite file.
@Suite struct FetchTests {
    @Test func fetchDownloadsRecordsAndProtectsAnEpisode() throws {
        let t = try CLITestCase()
        let (url, data) = try t.source("first episode.mp3")
        let fetch = try t.run(["fetch", url])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stdout.hasPrefix("Downloaded #1 first episode (195.3 KiB): \(t.home.path)/episodes/"))
        #expect(fetch.stderr.isEmpty, "no progress bar or notes when stderr is not a terminal")

        let shown = try t.show("1")
        let path = try #require(shown["path"] as? String)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
        #expect(shown["size"] as? Int == data.count)
        #expect(shown["sha256"] as? String == (try sha256(of: data)))
        #expect(shown["state"] as? String == "downloaded")
        #expect(shown["mode"] as? String == "0600")
        #expect(shown["protection"] as? String == "private")
        #expect(shown["url"] as? String == url)
        #expect(shown["position"] as? Double == 0)
        #expect(shown["played"] as? Bool == false)
        let uuid = try #require(shown["uuid"] as? String)
        #expect(path == "\(t.home.path)/episodes/\(uuid)/first episode.mp3")
        let directoryMode =
            try FileManager.default.attributesOfItem(atPath: t.home.path + "/episodes/" + uuid)[.posixPermissions]
            as? Int
        #expect(directoryMode == 0o700)
        #expect(try t.run(["show", String(uuid.prefix(6))]).stdout.contains("SHA-256"))

        let again = try t.run(["fetch", url])
        #expect(again.status == 0)
        #expect(again.stdout == "Already downloaded: #1 first episode\n" && again.stderr.isEmpty)
        #expect(try t.server.stats(pathPrefix: String(url.dropFirst(t.server.baseURL.count))).count == 1)
    }

    @Test func aTerminalGetsAProgressBarRedrawnInPlace() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("tty.mp3", size: 1_500_000)
        // script(1) gives podcli a pseudo-terminal for stdout and stderr.
        let command = "'\(t.podcli.executableURL.path)' --home '\(t.home.path)' fetch '\(url)?slow=1500000'"
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/script"), arguments: ["-qec", command, "/dev/null"],
            environment: t.podcli.childEnvironment()
        ).waitUntilExit()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\r\u{1B}[2K#1 "))
        #expect(result.stdout.contains(" / 1.4 MiB ["))
        #expect(result.stdout.contains("ETA"))
        #expect(result.stdout.contains("Downloaded #1 tty (1.4 MiB)"))
    }

    @Test func openProtectionIsReadableByOthers() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("open.mp3")
        #expect(try t.run(["fetch", "--protection", "open", url, "--quiet"]).status == 0)
        let shown = try t.show("1")
        #expect(shown["mode"] as? String == "0644")
        #expect(shown["protection"] as? String == "open")
        let bad = try t.run(["fetch", "--protection", "secret", url])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("podcli: invalid value 'secret' for '--protection': expected private or open\n"))
    }

    /// The choices are checked while parsing: before the URL is missed, anything is read or made.
    @Test func aProtectionOutsideItsChoicesIsAUsageErrorBeforeAnythingRuns() throws {
        let t = try CLITestCase()
        let slip = try t.run(["fetch", "--protection", "privat"])
        #expect(slip.status == 64)
        #expect(
            slip.stderr.split(separator: "\n").first
                == "podcli: invalid value 'privat' for '--protection': expected private or open (did you mean 'private'?)",
            "\(slip)")
        #expect(!FileManager.default.fileExists(atPath: t.home.path + "/podcli.db"))
        let help = try t.run(["fetch", "--help"])
        #expect(help.stdout.contains("(one of: private, open)"), "\(help)")
    }

    @Test func theConfigFileChoosesTheDefaultProtectionAndBadLinesAreNamed() throws {
        let t = try CLITestCase()
        _ = try t.home.write("# podcli\nprotection = open\n", to: "config")
        let (url, _) = try t.source("configured.mp3")
        #expect(try t.run(["fetch", url]).status == 0)
        #expect(try t.show("1")["mode"] as? String == "0644")
        _ = try t.home.write("protection = open\ncolour = blue\n", to: "config")
        let (other, _) = try t.source("other.mp3")
        let result = try t.run(["fetch", other])
        #expect(result.status == 64)
        #expect(result.stderr == "podcli: \(t.home.path)/config:2: unknown key 'colour'\n")
    }

    @Test func jsonOutputIsTheEpisodeRecordAlone() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("json.mp3")
        let result = try t.run(["fetch", url, "--json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        #expect(object?["title"] as? String == "json")
        #expect(object?["state"] as? String == "downloaded")
    }

    @Test(arguments: [
        ("not a url", 64, "podcli: 'not a url' is not an http or https URL"),
        ("ftp://127.0.0.1/a.mp3", 64, "podcli: 'ftp://127.0.0.1/a.mp3' is not an http or https URL"),
        ("file:///etc/passwd", 64, "podcli: 'file:///etc/passwd' is not an http or https URL"),
    ])
    func badURLsAreRefusedBeforeAnythingIsRecorded(url: String, status: Int32, message: String) throws {
        let t = try CLITestCase()
        let result = try t.run(["fetch", url])
        #expect(result.status == status)
        #expect(result.stderr == message + "\n")
        #expect(try t.run(["list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]")
    }

    @Test func anHTMLPageIsRefusedWithOneLineAndNothingIsKept() throws {
        let t = try CLITestCase()
        let url = t.server.url("/html/portal-\(UUID().uuidString).mp3")
        let result = try t.run(["fetch", url])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "podcli: \(url) is not audio (the server sent a text/html page, perhaps a captive portal or login page); nothing was kept\n"
        )
        // Nothing: no episode (not even a failed one), no directory.
        #expect(try t.run(["list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]")
        #expect(try FileManager.default.contentsOfDirectory(atPath: t.home.path + "/episodes").isEmpty)
    }

    @Test func httpErrorsGiveTheNetworkExitCode() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("missing.mp3")
        let result = try t.run(["fetch", url + "?status=404"])
        #expect(result.status == 69)
        #expect(result.stderr == "podcli: server answered 404 Not Found for \(url)?status=404\n")
        let redirect = try t.run(["fetch", t.server.url("/to-file/\(UUID().uuidString).mp3"), "--quiet"])
        #expect(redirect.status == 69)
        #expect(redirect.stderr.contains("refused the redirect") && redirect.stderr.contains("file:///etc/passwd"))
    }

    @Test func aKilledFetchResumesAndTransfersOnlyTheRest() throws {
        let t = try CLITestCase()
        let (url, data) = try t.source("long.mp3", size: 2_000_000)
        let slow = url + "?slow=400000"
        let running = try t.podcli.start(["--home", t.home.path, "fetch", slow])
        // Wait until part of the body is on disk, then kill -9.
        let arrived = waitUntil(timeout: 20) {
            let root = t.home.path + "/episodes"
            guard let uuid = try? FileManager.default.contentsOfDirectory(atPath: root).first,
                let part = try? FileManager.default.attributesOfItem(atPath: "\(root)/\(uuid)/long.mp3.part")
            else { return false }
            return (part[.size] as? Int ?? 0) > 300_000
        }
        #expect(arrived)
        running.kill(signal: SIGKILL)
        _ = try running.waitUntilExit()
        #expect(try t.show("1")["state"] as? String == "downloading")

        let resumed = try t.run(["fetch", slow])
        #expect(resumed.status == 0, "\(resumed)")
        let shown = try t.show("1")
        #expect(try Data(contentsOf: URL(fileURLWithPath: shown["path"] as! String)) == data)
        let requests = try t.server.stats(pathPrefix: URL(string: url)!.path)
        #expect(requests.count == 2)
        let resume = try #require(requests.last)
        #expect(resume.range?.hasPrefix("bytes=") == true && resume.range != "bytes=0-")
        #expect(resume.bodyBytesSent < data.count)
    }

    @Test func aFullDiskIsAStorageErrorAndTheNextRunCarriesOn() throws {
        let t = try CLITestCase()
        let (url, data) = try t.source("big.mp3", size: 3_000_000)
        // RLIMIT_FSIZE makes writes past 1 MiB fail with EFBIG, as a full disk fails with ENOSPC.
        _ = try t.run(["list"])  // create the database before the limit applies
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: [
                "-c", "ulimit -f 1024; exec \"$0\" \"$@\"", t.podcli.executableURL.path, "--home", t.home.path, "fetch",
                url,
            ],
            environment: t.podcli.childEnvironment()
        ).waitUntilExit()
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.hasPrefix("podcli: could not write \(t.home.path)/episodes/"))
        #expect(result.stderr.hasSuffix("big.mp3.part: File too large\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        // The disk's failure, not the episode's: cut short (its partial file kept), not failed.
        let interrupted = try t.show("1")
        #expect(interrupted["state"] as? String == "downloading")
        #expect(interrupted["path"] == nil || interrupted["path"] is NSNull)

        let retry = try t.run(["fetch", url])
        #expect(retry.status == 0, "\(retry)")
        let resume = try t.server.stats(pathPrefix: URL(string: url)!.path).last?.range
        #expect(resume?.hasPrefix("bytes=") == true && resume != "bytes=0-", "\(String(describing: resume))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: try t.show("1")["path"] as! String)) == data)
    }

    @Test func twoFetchesOfOneEpisodeDoNotWriteTogether() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("shared.mp3", size: 1_000_000)
        // About 10 s at this pace: the window to see it downloading must outlast a loaded machine.
        let slow = url + "?slow=100000"
        let first = try t.podcli.start(["--home", t.home.path, "fetch", slow])
        #expect(waitUntil(timeout: 20) { (try? t.show("1")["state"] as? String) == "downloading" })
        let second = try t.run(["fetch", slow])
        #expect(second.status == 75)
        #expect(second.stderr.contains("busy: another podcli is downloading"))
        #expect(try first.waitUntilExit().status == 0)
    }
}
