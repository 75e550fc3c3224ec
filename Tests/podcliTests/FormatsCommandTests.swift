import Foundation
import TestSupport
import Testing

/// Every podcast audio format end to end (issue 16): the built podcli fetches, records, lists and
/// plays AAC (M4A with the index first or last, mono 22 kHz, raw ADTS), ALAC, Opus, Vorbis and
/// FLAC that Debian's `ffmpeg` made, on an ALSA capture device, compared with what the `ffmpeg`
/// command decodes; and refuses the broken ones in one line, recording nothing.
@Suite(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
struct FormatsCommandTests {
    typealias Kind = AudioFixtures.Kind

    /// Serves `kind`'s file as `name` and fetches it; returns the episode's number.
    static func download(_ kind: Kind, in library: PlayCommandTests.Library, as name: String? = nil, query: String = "")
        throws -> String
    {
        let data = try Data(contentsOf: AudioFixtures.shared.url(kind))
        let fetch = try library.t.run([
            "fetch", try library.t.source(name ?? kind.rawValue, data: data).url + query, "--json",
        ])
        guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
        return "\((try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any])["id"] as! Int)"
    }

    /// What podcli plays of the whole file: the `ffmpeg` command's decoding, less the encoder's
    /// padding an MP4's edit list marks at the end, which the `ffmpeg` command plays and podcli
    /// (as for MP3) does not. The length, 20 s, is what the edit list says.
    static func expected(_ kind: Kind) throws -> Data {
        let reference = try AudioFixtures.reference(try AudioFixtures.shared.url(kind))
        switch kind {
        case .aacIndexLast, .aacIndexFirst, .aacMono22k:
            return reference.prefix(AudioFixtures.seconds * kind.sampleRate * kind.channels * 2)
        default:
            return reference
        }
    }

    static let names: [Kind: String] = [
        .aacIndexLast: "M4A", .aacIndexFirst: "M4A", .aacMono22k: "M4A", .alac: "M4A", .adts: "AAC", .opus: "Opus",
        .vorbis: "Vorbis", .flac: "FLAC",
    ]

    @Test(arguments: Kind.playable)
    func eachFormatIsFetchedRecordedAndPlayedExactly(_ kind: Kind) throws {
        let library = try PlayCommandTests.Library()
        let id = try Self.download(kind, in: library)
        let shown = try library.t.show(id)
        #expect(shown["state"] as? String == "downloaded")
        #expect(shown["format"] as? String == Self.names[kind])
        #expect(try library.t.run(["show", id]).stdout.contains("\nFormat      \(Self.names[kind]!)\n"))
        let listed = try library.t.run(["list", "--json"])
        #expect(
            (try JSONSerialization.jsonObject(with: listed.stdoutData) as! [[String: Any]])[0]["format"] as? String
                == Self.names[kind])

        let play = try library.play([id])
        #expect(play.status == 0, "\(play)")
        let title = String(kind.rawValue.prefix { $0 != "." })
        #expect(play.stdout == "Playing #\(id) \(title) from 0:00 of 0:20\nPlayed #\(id) \(title)\n")
        #expect(try library.captured(rate: kind.sampleRate, channels: kind.channels) == (try Self.expected(kind)))
    }

    /// `--from 10 --for 5` gives those five seconds, placed to the frame (sought within ±20 ms
    /// of the reference: the offset found must be 0), and the position is saved for a resume.
    @Test(arguments: Kind.playable)
    func fromAndForGiveThoseSecondsAndTheNextPlayResumes(_ kind: Kind) throws {
        let library = try PlayCommandTests.Library()
        let id = try Self.download(kind, in: library)
        let play = try library.play([id, "--from", "10", "--for", "5"], device: library.device("part"))
        #expect(play.status == 0, "\(play)")
        let part = try library.captured("part", rate: kind.sampleRate, channels: kind.channels)
        #expect(part.count == 5 * kind.sampleRate * kind.channels * 2)
        let (offset, largest) = PCMComparison.alignment(
            of: part, in: try Self.expected(kind), startingAt: 10 * kind.sampleRate, channels: kind.channels,
            sampleRate: kind.sampleRate, reach: kind.sampleRate / 50)
        #expect(offset == 0, "\(kind): \(offset) frames off")
        #expect(largest <= (kind == .flac || kind == .vorbis || kind == .alac ? 0 : 8), "\(kind): \(largest) steps off")
        #expect(try library.t.show(id)["position"] as? Double == 15)

        let rest = try library.play([id], device: library.device("rest"))
        #expect(rest.status == 0, "\(rest)")
        #expect(
            rest.stdout.hasPrefix("Playing #\(id) \(String(kind.rawValue.prefix { $0 != "." })) from 0:15 of 0:20\n"))
        let whole = try Self.expected(kind)
        #expect(
            try library.captured("rest", rate: kind.sampleRate, channels: kind.channels).count == whole.count - 15
                * kind.sampleRate * kind.channels * 2)
    }

    /// An M4A at a URL with no extension, named by its Content-Type only.
    @Test func anM4AServedWithNoExtensionIsNamedByItsType() throws {
        let library = try PlayCommandTests.Library()
        let id = try Self.download(.aacIndexFirst, in: library, as: "episode", query: "?ctype=audio/mp4")
        let shown = try library.t.show(id)
        #expect((shown["path"] as? String)?.hasSuffix("/episode.m4a") == true, "\(shown)")
        #expect(shown["format"] as? String == "M4A")
        #expect(try library.play([id]).status == 0)
        #expect(try library.captured() == (try Self.expected(.aacIndexFirst)))
    }

    static let damagedTable = "the M4A file is damaged: its audio track's "
    static let reasons: [Kind: String] = [
        .truncated: "the M4A file is cut short: its 'mdat' box runs to byte ",
        .videoOnly: "the MP4 file has video and no audio track; nothing was kept",
        .encrypted: "the M4A file is encrypted (DRM), which podcli cannot play; nothing was kept",
        .brokenPage: "the Ogg file is damaged: the page at byte ",
        .unknownCodec: "its audio is in a format podcli cannot play ('zzzz'); nothing was kept",
        .headersOnly: "the Ogg file has no audio: its stream ends after its headers; nothing was kept",
        .zeroBlockSize: "the FLAC stream is damaged: its blocks are at most 0 samples (16 or more); nothing was kept",
        .noSampleDescription: damagedTable + "'stsd' box counts 0 sample descriptions; nothing was kept",
        .noSamples: damagedTable + "'stsz' box counts 0 samples; nothing was kept",
        .tooManySamples: damagedTable + "'stsz' box counts 100000 samples, more than it holds; nothing was kept",
        .noChunks: damagedTable + "'stco' box counts 0 chunks; nothing was kept",
        .tooManyChunks: damagedTable + "'stco' box counts 100000 chunks, more than it holds; nothing was kept",
    ]

    @Test(arguments: Kind.broken)
    func aBrokenFileIsRefusedInOneLineAndNothingIsRecorded(_ kind: Kind) throws {
        let t = try CLITestCase()
        let url = try t.source(kind.rawValue, data: try Data(contentsOf: AudioFixtures.shared.url(kind))).url
        let fetch = try t.run(["fetch", url])
        #expect(fetch.status == 65, "\(fetch)")
        #expect(fetch.stderr.hasPrefix("podcli: \(url) cannot be played: \(Self.reasons[kind]!)"), "\(fetch)")
        #expect(fetch.stderr.hasSuffix("; nothing was kept\n"))
        #expect(fetch.stderr.split(separator: "\n").count == 1)
        // Nothing kept means nothing: no episode made for it, no directory (issue 13).
        #expect(try t.run(["list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]")
        #expect(try FileManager.default.contentsOfDirectory(atPath: t.home.path + "/episodes").isEmpty)
        #expect(try t.run(["verify"]).status == 0)
    }

    /// A feed of MP3, M4A and Opus episodes and a broken M4A: sync downloads the good ones, records
    /// the broken one against its episode (exit 65, as for any content failure) and goes on.
    @Test func aMixedFeedSyncsEveryFormatAndRecordsTheBrokenOne() throws {
        let world = try FeedCommandTests.World()
        var items: [FeedCommandTests.Item] = []
        let files: [(String, Data, String)] = [
            ("tone.mp3", try Data(contentsOf: fixture("tone-44k-stereo.mp3")), "audio/mpeg"),
            ("aac.m4a", try Data(contentsOf: AudioFixtures.shared.url(.aacIndexLast)), "audio/x-m4a"),
            ("talk.opus", try Data(contentsOf: AudioFixtures.shared.url(.opus)), "audio/ogg"),
            ("cut.m4a", try Data(contentsOf: AudioFixtures.shared.url(.truncated)), "audio/mp4"),
        ]
        for (n, (name, data, type)) in files.enumerated() {
            try data.write(to: world.directory.appendingPathComponent(name))
            var item = world.item(n + 1)
            item.title = name
            item.url = world.url(name)
            item.length = data.count
            item.type = type
            item.published = Int(Date().timeIntervalSince1970) - (10 - n) * 3600
            items.append(item)
        }
        let feed = try world.serve("mixed.xml", FeedCommandTests.rss(title: "Mixed", items: items))
        #expect(try world.t.run(["fetch", feed]).status == 0)
        _ = try world.t.home.write("download = all\n", to: "config")
        let sync = try world.t.run(["sync", "--quiet"])
        #expect(sync.status == 65, "\(sync)")
        let lines = sync.stderr.split(separator: "\n")
        #expect(
            lines.first?.contains("cut.m4a: ") == true
                && lines.first?.contains("cannot be played: the M4A file is cut short") == true, "\(sync)")
        let episodes = try world.episodes()
        let states = Dictionary(uniqueKeysWithValues: episodes.map { ($0["title"] as! String, $0["state"] as! String) })
        #expect(
            states == [
                "tone.mp3": "downloaded", "aac.m4a": "downloaded", "talk.opus": "downloaded", "cut.m4a": "failed",
            ])
        let formats = Dictionary(
            uniqueKeysWithValues: episodes.map { ($0["title"] as! String, $0["format"] as? String) })
        #expect(formats == ["tone.mp3": "MP3", "aac.m4a": "M4A", "talk.opus": "Opus", "cut.m4a": "M4A"])
        let table = try world.t.run(["list"]).stdout
        #expect(table.contains("FORMAT"))
        #expect(table.contains(" Opus "))
    }

    /// Streamed while it downloads (at 1 MB/s; what is under 256 KiB arrives whole before it
    /// plays): FLAC plays as it arrives; an M4A with its index last (ALAC, as ffmpeg writes it)
    /// says it waits for the end, then plays; both exactly.
    @Test(arguments: [Kind.flac, .alac, .opus])
    func aStreamOfEachFormatPlaysAsItDownloads(_ kind: Kind) throws {
        let library = try PlayCommandTests.Library()
        let data = try Data(contentsOf: AudioFixtures.shared.url(kind))
        let url = try library.t.source(kind.rawValue, data: data).url + "?slow=1000000"
        let play = try library.play([url])
        #expect(play.status == 0, "\(play)")
        let waits = play.stdout.contains(
            "The index of #1 is at the end of its file: playing starts once it has downloaded\n")
        #expect(waits == (kind == .alac), "\(play)")
        #expect(try library.captured(rate: kind.sampleRate, channels: kind.channels) == (try Self.expected(kind)))
        #expect(try library.t.show("1")["state"] as? String == "downloaded")
    }

    /// A stream of one MPEG frame, 24 ms of MP2, plays: `mpg123 -s` outputs nothing for it
    /// (libmpg123 wants a second frame header before it trusts the first), so the reference is
    /// what it decodes of the frame followed by a copy, up to the copy.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123"), "mpg123 is not installed"))
    func aSingleFrameMP2Plays() throws {
        let library = try PlayCommandTests.Library()
        let frame = try Data(contentsOf: AudioFixtures.shared.url(.singleFrameMP2))
        let id = try Self.download(.singleFrameMP2, in: library)
        let play = try library.play([id])
        #expect(play.status == 0, "\(play)")
        let doubled = try library.captures.write(frame + frame, to: "doubled.mp2")
        let reference = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/mpg123"), arguments: ["-q", "-s", doubled.path],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit().stdoutData
        let heard = try library.captured(rate: 48_000, channels: 1)
        #expect(heard.count == 1152 * 2)
        #expect(heard == reference.prefix(heard.count))
    }

    /// PCM goes out at the stream's own rate (above: each capture is at its file's rate); a
    /// device that refuses the rate (here a `plug` whose slave takes 48 kHz only) gets ALSA's
    /// resampling, and the session says so.
    @Test func aDeviceThatRefusesTheRateResamplesAndSaysSo() throws {
        let library = try PlayCommandTests.Library()
        let id = try Self.download(.aacMono22k, in: library)
        let alsaHome = try TemporaryDirectory(prefix: "podcli-alsa")
        try alsaHome.write(
            """
            pcm.podcli_48k_only {
                type plug
                slave {
                    pcm { type file slave.pcm "null" file "\(library.captures.path)/only48k_%r_%c.raw" format "raw" }
                    rate 48000
                }
            }

            """, to: ".asoundrc")
        let play = try library.t.run(["play", id, "--device", "podcli_48k_only"], environment: ["HOME": alsaHome.path])
        #expect(play.status == 0, "\(play)")
        #expect(
            play.stdout.contains("The device 'podcli_48k_only' cannot play 22050 Hz: ALSA resamples it\n"), "\(play)")
        let heard = try library.captured("only48k", rate: 48_000, channels: 1)
        #expect(abs(heard.count / 2 - 20 * 48_000) < 48_000 / 10, "\(heard.count / 2) frames")
        // A device that takes the rate plays it as it is, and says nothing.
        let plain = try library.play([id, "--from", "0"])
        #expect(!plain.stdout.contains("resamples"))
    }

    /// The queue goes from format to format (the device reopened for each rate), each exactly.
    @Test func theQueuePlaysOneFormatAfterAnother() throws {
        let library = try PlayCommandTests.Library()
        let kinds: [Kind] = [.flac, .opus, .aacMono22k]
        let ids = try kinds.map { try Self.download($0, in: library) }
        let mp3 = try library.download(PlayCommandTests.stereo)
        #expect(try library.t.run(["queue", "add"] + ids).status == 0)
        let play = try library.play([mp3])
        #expect(play.status == 0, "\(play)")
        #expect(try library.captured(rate: 48_000, channels: 2) == (try Self.expected(.opus)))
        #expect(try library.captured(rate: 22_050, channels: 1) == (try Self.expected(.aacMono22k)))
        // The MP3 and the FLAC file after it share 44.1 kHz stereo: the device stays open.
        let shared = try PlayCommandTests.reference(PlayCommandTests.stereo) + (try Self.expected(.flac))
        #expect(try library.captured(rate: 44_100, channels: 2) == shared)
        #expect(try library.t.run(["queue", "ls"]).stdout == "The queue is empty.\n")
    }

    /// `--from` in Ogg files whose timestamps jump to near 2⁶² or whose last granule is 2⁶³ - 1
    /// (issue 22 review: the seek's frame arithmetic overflowed and trapped `play`, exit 132):
    /// the last second plays as asked.
    @Test(arguments: Kind.wildGranule + Kind.hugeGranule)
    func fromInAFileOfImpossibleTimestampsPlaysWhatWasAsked(_ kind: Kind) throws {
        let library = try PlayCommandTests.Library()
        let id = try Self.download(kind, in: library)
        let play = try library.play([id, "--from", "19", "--for", "1"], device: library.device("part"))
        #expect(play.status == 0, "\(play)")
        let frames =
            try library.captured("part", rate: kind.sampleRate, channels: kind.channels).count / (kind.channels * 2)
        #expect(abs(frames - kind.sampleRate) < kind.sampleRate / 20, "\(kind): \(frames) frames heard")
    }

    /// Ogg files whose last granule is 2⁶³ - 1 (issue 22: `play` trapped on the length's
    /// arithmetic, and in a queue every later one too): fetched and recorded, and played in a
    /// queue one after the other, then the good Opus file after them. Their length is what
    /// decoding them measured once downloaded (the container's is no length at all).
    @Test func oggFilesWithAnImpossibleLengthPlayInAQueue() throws {
        let library = try PlayCommandTests.Library()
        // Vorbis and FLAC share 44.1 kHz stereo, the two Opus files 48 kHz: each pair is captured whole.
        let kinds: [Kind] = [.hugeGranuleVorbis, .hugeGranuleFLAC, .hugeGranuleOpus, .opus]
        let ids = try kinds.map { try Self.download($0, in: library) }
        #expect(try library.t.run(["queue", "add"] + ids.dropFirst()).status == 0)
        let play = try library.play([ids[0]])
        #expect(play.status == 0, "\(play)")
        #expect(play.stdout.contains("Playing #\(ids[0]) huge-granule from 0:00 of 0:20\n"), "\(play)")
        #expect(play.stdout.contains("Played #\(ids[2]) huge-granule\n"), "\(play)")
        #expect(play.stdout.hasSuffix("Played #\(ids[3]) opus\n"), "\(play)")
        // Compared as Bools: a failing comparison of two large values is diffed for minutes.
        let vorbis = try AudioFixtures.reference(try AudioFixtures.shared.url(.hugeGranuleVorbis))
        let flac = try AudioFixtures.reference(try AudioFixtures.shared.url(.hugeGranuleFLAC))
        let heard44k = try library.captured(rate: 44_100, channels: 2)
        let same44k = heard44k == vorbis + flac
        #expect(same44k, "\(heard44k.count) bytes heard, \(vorbis.count) + \(flac.count) decoded by the ffmpeg command")
        let opus = try AudioFixtures.reference(try AudioFixtures.shared.url(.hugeGranuleOpus))
        let good = try Self.expected(.opus)
        let heard48k = try library.captured(rate: 48_000, channels: 2)
        let same48k = heard48k == opus + good
        #expect(same48k, "\(heard48k.count) bytes heard, \(opus.count) + \(good.count) decoded by the ffmpeg command")
    }
}
