import Foundation
import TestSupport
import Testing

/// Each download measured once it is complete (`fetch`, `download`, `sync`), end to end: the
/// built podcli against the loopback fault server. The references are tools that are not
/// podcli: mpg123's decoded frames and ffmpeg's `ebur128`.
@Suite(
    .enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"),
    .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123"), "mpg123 is not installed"))
struct MeasurementCommandTests {
    /// 65 s of a 1 kHz tone at about -20 LUFS, mono MP3, made by ffmpeg; and its length in
    /// milliseconds as mpg123 decodes it.
    static func tone(in directory: TemporaryDirectory) throws -> (data: Data, milliseconds: Int) {
        let path = directory.path + "/tone.mp3"
        try AudioFixtures.runFFmpeg([
            "-f", "lavfi", "-i", "aevalsrc=0.1*sin(2*PI*1000*t):s=22050:d=65", "-c:a", "libmp3lame", "-b:a", "32k",
            path,
        ])
        let decoded = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/mpg123"), arguments: ["-q", "-s", path],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        return (try Data(contentsOf: URL(fileURLWithPath: path)), decoded.stdoutData.count / 2 * 1000 / 22_050)
    }

    @Test func anEpisodeFetchedByItsURLHasItsLengthInListAndItsLoudnessInShow() throws {
        let t = try CLITestCase()
        let tone = try Self.tone(in: t.home)
        let (url, _) = try t.source("tone.mp3", data: tone.data)
        let fetch = try t.run(["fetch", url])
        #expect(fetch.status == 0 && fetch.stderr.isEmpty, "\(fetch)")

        let list = try t.run(["list"])
        #expect(list.stdout.contains(" 1:05 "), "\(list)")
        let shown = try t.show("1")
        #expect(shown["duration"] as? Double == Double(tone.milliseconds) / 1000)
        let reference = try AudioFixtures.ebur128(try #require(shown["path"] as? String))
        let loudness = try #require(shown["loudness"] as? Double)
        let truePeak = try #require(shown["true_peak"] as? Double)
        #expect(abs(loudness - reference.integrated) <= 0.5 && abs(truePeak - reference.truePeak) <= 0.5)
        let text = try t.run(["show", "1"]).stdout
        #expect(text.contains("Duration    1:05\n"), "\(text)")
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Loudness    ") })
        #expect(line.contains(" LUFS, true peak ") && line.hasSuffix(" dBTP"), "\(line)")
    }

    @Test func aFeedsWrongDurationGivesWayToTheFilesLength() throws {
        let w = try FeedCommandTests.World()
        let tone = try Self.tone(in: w.t.home)
        try tone.data.write(to: w.directory.appendingPathComponent("tone.mp3"))
        var item = w.item(1)
        item.url = w.url("tone.mp3")
        item.length = tone.data.count
        item.duration = "99:99"
        let feed = try w.serve("show.xml", FeedCommandTests.rss(title: "Show", items: [item]))
        #expect(try w.t.run(["fetch", feed]).status == 0)
        // podcli reads no length from 99:99 (seconds past 59): today's `show` tells none.
        #expect(!(try w.t.run(["show", "1"]).stdout.contains("Duration")))

        let download = try w.t.run(["download", "1"])
        #expect(download.status == 0 && !download.stderr.contains("warning"), "\(download)")
        let shown = try w.t.run(["show", "1"]).stdout
        #expect(shown.contains("Duration    1:05\n"), "\(shown)")
        #expect(try w.episodes().first?["duration"] as? Double == Double(tone.milliseconds) / 1000)
    }

    @Test func aFileThatCannotBeMeasuredIsOneWarningAndStillADownload() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("noise.flac", data: try AudioFixtures.shared.flacWithNoise())
        let fetch = try t.run(["fetch", url])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stdout.hasPrefix("Downloaded #1 noise "), "\(fetch)")
        let warnings = fetch.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].hasPrefix("warning: #1 noise: not measured: "), "\(fetch)")
        let shown = try t.show("1")
        #expect(shown["state"] as? String == "downloaded")
        #expect(shown["loudness"] == nil && shown["duration"] == nil)
        // Not measured twice: a file that failed is not tried again until it changes.
        #expect(try t.run(["sync"]).stderr.isEmpty)
    }

    @Test func syncMeasuresEachDownloadAndTheOldOnesLeftUnmeasured() throws {
        let w = try FeedCommandTests.World()
        let tone = try Self.tone(in: w.t.home)
        try tone.data.write(to: w.directory.appendingPathComponent("tone.mp3"))
        try AudioFixtures.shared.flacWithNoise().write(to: w.directory.appendingPathComponent("noise.flac"))
        var items = [w.item(2), w.item(1)]
        (items[0].title, items[0].url, items[0].duration) = ("Tone", w.url("tone.mp3"), "45:00")
        (items[1].title, items[1].url, items[1].type) = ("Noise", w.url("noise.flac"), "audio/flac")
        let feed = try w.serve("show.xml", FeedCommandTests.rss(title: "Show", items: items))
        #expect(try w.t.run(["fetch", feed]).status == 0)
        _ = try w.t.home.write("download = all\n", to: "config")

        let sync = try w.t.run(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.stdout.contains("2 downloaded"), "\(sync)")
        let warnings = sync.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1 && warnings[0].contains("Noise: not measured: "), "\(sync)")
        let log = try String(contentsOfFile: w.t.home.path + "/sync.log", encoding: .utf8)
        #expect(log.contains("  warning: #") && log.contains("Noise: not measured: "), "\(log)")
        let toneID = try #require(try w.episodes().first { $0["title"] as? String == "Tone" }?["id"] as? Int)
        // The file's length, not the feed's 45:00.
        #expect(try w.t.show("\(toneID)")["duration"] as? Double == Double(tone.milliseconds) / 1000)

        // What an older podcli downloaded: no measurement. The next sync measures it.
        let database = w.t.home.path + "/podcli.db"
        let forget = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [database, "DELETE FROM measurements"],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        #expect(forget.status == 0, "\(forget)")
        #expect(try w.t.show("\(toneID)")["loudness"] == nil)
        let again = try w.t.run(["sync"])
        #expect(again.status == 0 && again.stdout.contains("0 downloaded"), "\(again)")
        #expect(try w.t.show("\(toneID)")["loudness"] as? Double != nil)
        #expect(again.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }.count == 1, "\(again)")
    }
}
