import AudioFormats
import Chapters
import Foundation
import TestSupport
import Testing

/// Chapters read from the bytes of audio files: the ones ffmpeg writes (ID3 CHAP in MP3, the
/// chapter track and `chpl` in M4A, CHAPTER comments in Opus), the ones built here byte by byte
/// (ID3 CTOC, every text encoding, unsynchronisation, comments in Vorbis and FLAC), the real
/// files of the corpus, and broken data of each kind.
@Suite struct EmbeddedChaptersTests {
    static let titles = ["Intro 🎙️", "Глава два", "第三章", "الفصل الرابع", "Ende"]
    /// No fraction of a half or more: ffmpeg 5.1 writes CHAPTERxxx times with the seconds rounded
    /// to the nearest (2.5 s as 00:00:03.500).
    static let starts: [Double] = [0, 2.25, 7.25, 12, 16.125]

    private static func read(_ bytes: [UInt8]) -> EmbeddedChapters.Reading {
        EmbeddedChapters.read(in: MemoryBytes(bytes))
    }

    /// An ffmetadata file of chapters at `starts` (seconds) titled `titles`, ending at 20 s.
    static func metadata(starts: [Double], titles: [String]) -> String {
        var text = ";FFMETADATA1\n"
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : Double(AudioFixtures.seconds)
            text +=
                "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int(start * 1000))\nEND=\(Int(end * 1000))\ntitle=\(titles[index])\n"
        }
        return text
    }

    /// The source encoded to `name` with the chapters of `metadata` and `options`.
    static func encode(
        _ name: String, starts: [Double] = starts, titles: [String] = titles, options: [String] = [],
        in directory: TemporaryDirectory
    ) throws -> [UInt8] {
        let chapters = try directory.write(metadata(starts: starts, titles: titles), to: "chapters.txt")
        let output = directory.appending(name)
        try AudioFixtures.runFFmpeg(
            ["-i", try AudioFixtures.shared.source().path, "-i", chapters.path, "-map", "0", "-map_chapters", "1"]
                + options + [output.path])
        return [UInt8](try Data(contentsOf: output))
    }

    // MARK: - What ffmpeg writes

    @Test(.requires(AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
    func id3ChaptersFfmpegWritesAreRead() throws {
        let directory = try TemporaryDirectory(prefix: "podcli-chapters")
        let reading = Self.read(try Self.encode("chapters.mp3", in: directory))
        #expect(reading.problems.isEmpty)
        #expect(reading.chapters.map(\.title) == Self.titles)
        #expect(reading.chapters.map(\.start) == Self.starts)
        #expect(reading.chapters.map(\.end) == Self.starts.dropFirst().map(Optional.some) + [20])
    }

    /// ffmpeg 5.1 writes both the chapter track and `chpl` into an M4A; `-movflags disable_chpl`
    /// only the track. With the track's reference undone, `chpl` alone is read.
    @Test(.requires(AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
    func mp4ChapterTrackAndNeroChaptersAreRead() throws {
        let directory = try TemporaryDirectory(prefix: "podcli-chapters")
        let both = try Self.encode("both.m4a", in: directory)
        let trackOnly = try Self.encode("track.m4a", options: ["-movflags", "disable_chpl"], in: directory)
        #expect(find("chpl", in: both) != nil && find("chpl", in: trackOnly) == nil)
        for bytes in [both, trackOnly] {
            let reading = Self.read(bytes)
            #expect(reading.problems.isEmpty)
            #expect(reading.chapters.map(\.title) == Self.titles)
            #expect(reading.chapters.map(\.start) == Self.starts)
        }
        var neroOnly = both
        let reference = try #require(find("tref", in: neroOnly))
        neroOnly.replaceSubrange((reference + 8)..<(reference + 12), with: Array("xxxx".utf8))
        let nero = Self.read(neroOnly)
        #expect(nero.problems.isEmpty)
        #expect(nero.chapters.map(\.title) == Self.titles)
        #expect(nero.chapters.map(\.start) == Self.starts)
        // A count that lies: 200 chapters said, five held.
        let chpl = try #require(find("chpl", in: neroOnly))
        neroOnly[chpl + 4 + 8] = 200
        let lying = Self.read(neroOnly)
        #expect(lying.chapters.isEmpty)
        #expect(lying.problems == [ChapterProblem(.neroChapters, "it says 200 chapters and holds 5")])
        #expect("\(lying.problems[0])" == "the file's MP4 chapters (chpl) are broken: it says 200 chapters and holds 5")
    }

    @Test(.requires(AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
    func aChapterTrackWhoseSampleTableLiesIsBrokenAndChplStillCounts() throws {
        let directory = try TemporaryDirectory(prefix: "podcli-chapters")
        var bytes = try Self.encode("both.m4a", in: directory)
        // The chapter track is the second trak; its stts says 5,000 entries.
        let first = try #require(find("trak", in: bytes))
        let second = try #require(find("trak", in: bytes, after: first + 4))
        let stts = try #require(find("stts", in: bytes, after: second))
        bytes.replaceSubrange((stts + 8)..<(stts + 12), with: [0, 0, 0x13, 0x88])
        let reading = Self.read(bytes)
        #expect(reading.chapters.map(\.title) == Self.titles)
        #expect(reading.problems.map(\.source) == [.quickTimeChapters])
    }

    @Test(.requires(AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
    func opusChapterCommentsFfmpegWritesAreRead() throws {
        let directory = try TemporaryDirectory(prefix: "podcli-chapters")
        let reading = Self.read(try Self.encode("chapters.opus", options: ["-c:a", "libopus"], in: directory))
        #expect(reading.problems.isEmpty)
        #expect(reading.chapters.map(\.title) == Self.titles)
        #expect(reading.chapters.map(\.start) == Self.starts)
    }

    /// ffmpeg 5.1 writes no chapters into Vorbis or FLAC: the comments are given as metadata.
    @Test(.requires(AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"), arguments: ["ogg", "flac"])
    func chapterCommentsInVorbisAndFlacAreRead(_ format: String) throws {
        let directory = try TemporaryDirectory(prefix: "podcli-chapters")
        func encode(_ comments: [String: String]) throws -> EmbeddedChapters.Reading {
            let output = directory.appending("comments.\(format)")
            try AudioFixtures.runFFmpeg(
                ["-i", try AudioFixtures.shared.source().path, "-t", "2"]
                    + comments.sorted { $0.key < $1.key }.flatMap { ["-metadata", "\($0.key)=\($0.value)"] }
                    + (format == "ogg" ? ["-c:a", "libvorbis"] : []) + [output.path])
            return Self.read([UInt8](try Data(contentsOf: output)))
        }
        let good = try encode([
            "CHAPTER001": "00:00:00.000", "CHAPTER001NAME": "Intro 🎙️", "CHAPTER002": "00:01:02.5",
            "CHAPTER002NAME": "第三章", "CHAPTER002URL": "https://example.com/3", "chapter010": "1:00:00",
        ])
        #expect(good.problems.isEmpty)
        #expect(good.chapters.map(\.start) == [0, 62.5, 3600])
        #expect(good.chapters.map(\.title) == ["Intro 🎙️", "第三章", nil])
        #expect(good.chapters.map(\.url) == [nil, "https://example.com/3", nil])
        let bad = try encode(["CHAPTER001": "00:00:00.000", "CHAPTER002": "00:61:00.000", "CHAPTER002NAME": "Bad"])
        #expect(bad.chapters.isEmpty)
        #expect(bad.problems == [ChapterProblem(.comments, "CHAPTER002 is not a time ('00:61:00.000')")])
    }

    /// 129 chapters: more than a signed byte counts, as ID3's CTOC and `chpl` count them.
    @Test(
        .requires(AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"), arguments: ["mp3", "m4a", "opus"])
    func aTableOf129ChaptersIsReadWhole(_ format: String) throws {
        let directory = try TemporaryDirectory(prefix: "podcli-chapters")
        let starts = (0..<129).map { Double($0 / 8) + Double($0 % 8) * 0.05 }
        let titles = (0..<129).map { "Kapitel \($0 + 1) — 章 \($0 + 1)" }
        let bytes = try Self.encode(
            "many.\(format)", starts: starts, titles: titles, options: format == "opus" ? ["-c:a", "libopus"] : [],
            in: directory)
        let reading = Self.read(bytes)
        #expect(reading.problems.isEmpty)
        #expect(reading.chapters.map(\.title) == titles)
        #expect(zip(reading.chapters.map(\.start), starts).allSatisfy { abs($0 - $1) < 0.0015 })
        #expect(reading.chapters.count == 129)
    }

    // MARK: - ID3 built byte by byte

    @Test func ctocOrderEveryTextEncodingUrlsAndPicturesAreRead() {
        let tag = ID3Builder(version: 4)
        tag.frame(
            "CHAP",
            ID3Builder.chapter(
                "b", start: 60_000, end: 90_000,
                frames: [
                    tag.built("TIT2", [2] + ID3Builder.utf16BE("Глава 🎧")),
                    tag.built("WOAR", Array("https://b.example".utf8)),
                ]))
        tag.frame(
            "CHAP",
            ID3Builder.chapter(
                "a", start: 0, end: 60_000,
                frames: [
                    tag.built("TIT2", [3] + Array("Anfang — 始まり".utf8)),
                    tag.built(
                        "WXXX", [1] + ID3Builder.utf16LEWithBOM("link") + [0, 0] + Array("https://a.example".utf8)),
                    tag.built("APIC", [0] + Array("image/png".utf8) + [0, 3, 0, 0x89, 0x50]),
                ]))
        tag.frame(
            "CHAP",
            ID3Builder.chapter("unlisted", start: 95_000, end: 0, frames: [tag.built("TIT2", [0, 0xC9, 0x74, 0xE9])]))
        tag.frame("CTOC", ID3Builder.tableOfContents("toc", flags: 0x03, children: ["a", "b"]))
        let reading = Self.read(tag.bytes + ID3Builder.audio)
        #expect(reading.problems.isEmpty)
        #expect(reading.chapters.map(\.title) == ["Anfang — 始まり", "Глава 🎧", "Été"])
        #expect(reading.chapters.map(\.start) == [0, 60, 95])
        #expect(reading.chapters.map(\.end) == [60, 90, nil])
        #expect(reading.chapters.map(\.url) == ["https://a.example", "https://b.example", nil])
        #expect(reading.chapters.map(\.image) == [Chapter.imageInFile, nil, nil])
    }

    /// v2.3 with the whole tag unsynchronised (and a UTF-16 title with a big-endian mark), and
    /// v2.4 with one frame unsynchronised: a 0x00 after every 0xFF, taken out again.
    @Test(arguments: [3, 4]) func unsynchronisedChaptersAreRead(_ version: Int) {
        let tag = ID3Builder(version: version)
        let title: [UInt8] =
            version == 3 ? [1, 0xFE, 0xFF] + ID3Builder.utf16BE("ÿÿ title") : [3] + Array("ÿÿ title".utf8)
        // 0xFFFF_FF00 ms: the start's bytes hold 0xFF too.
        tag.frame(
            "CHAP", ID3Builder.chapter("c", start: 0x00FF_FF00, end: 0x00FF_FFFF, frames: [tag.built("TIT2", title)]),
            unsynchronised: true)
        let reading = Self.read(tag.bytes + ID3Builder.audio)
        #expect(reading.problems.isEmpty)
        #expect(reading.chapters.map(\.title) == ["ÿÿ title"])
        #expect(reading.chapters.map(\.start) == [Double(0x00FF_FF00) / 1000])
    }

    @Test func brokenID3ChaptersGiveAProblemAndNoChapters() {
        // A CHAP frame past the file's end.
        let tag = ID3Builder(version: 3)
        tag.frame(
            "CHAP", ID3Builder.chapter("a", start: 0, end: 1000, frames: [tag.built("TIT2", [0] + Array("A".utf8))]))
        let cut = Array(tag.bytes.dropLast(4))
        #expect(Self.read(cut).chapters.isEmpty)
        #expect(Self.read(cut).problems == [ChapterProblem(.id3, "a CHAP frame runs past the end of the file")])
        // A CTOC whose count lies, and a CHAP too short for its times.
        let lying = ID3Builder(version: 4)
        lying.frame("CHAP", ID3Builder.chapter("a", start: 0, end: 1000, frames: []))
        lying.frame("CTOC", ID3Builder.tableOfContents("toc", flags: 0x03, children: ["a"], count: 9))
        #expect(
            Self.read(lying.bytes + ID3Builder.audio).problems == [
                ChapterProblem(.id3, "a CTOC frame says 9 entries and holds 1")
            ])
        let short = ID3Builder(version: 4)
        short.frame("CHAP", Array("a".utf8) + [0, 0, 0, 1])
        #expect(
            Self.read(short.bytes + ID3Builder.audio).problems == [
                ChapterProblem(.id3, "CHAP 'a' is too short for its times")
            ])
    }

    /// A thousand and one chapters is more than podcli reads: broken, not a thousand and one.
    @Test func moreChaptersThanTheLimitAreBroken() {
        let tag = ID3Builder(version: 4)
        for index in 0...ChapterProblem.maximumChapters {
            tag.frame("CHAP", ID3Builder.chapter("c\(index)", start: UInt32(index) * 1000, end: 0, frames: []))
        }
        #expect(Self.read(tag.bytes + ID3Builder.audio).problems == [ChapterProblem(.id3, "more than 1000 chapters")])
    }

    // MARK: - The corpus

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/audio").standardized
    static let corpusFiles = ["hindenburg-chapters.mp3", "mp3chaps-vbr-chapters.mp3", "auphonic-demo-1400art.mp3"]

    /// The real files with chapters: the starts and titles ffprobe reads from them.
    @Test(
        .requires(FileManager.default.fileExists(atPath: corpus.path), "../shared/corpus/audio is not present"),
        .requires(TestEnvironment.has("/usr/bin/ffprobe"), "ffprobe is not installed"), arguments: corpusFiles)
    func corpusChaptersAreWhatFfprobeReads(_ file: String) throws {
        let path = Self.corpus.appendingPathComponent(file).path
        let source = try #require(FileBytes(path: path))
        let reading = EmbeddedChapters.read(in: source)
        #expect(reading.problems.isEmpty)
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/ffprobe"),
            arguments: ["-v", "error", "-show_chapters", "-of", "json", path],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit(timeout: 60)
        struct Probe: Decodable {
            struct Entry: Decodable {
                let startTime: String
                enum CodingKeys: String, CodingKey {
                    case startTime = "start_time"
                    case tags
                }
                let tags: [String: String]?
            }
            let chapters: [Entry]
        }
        let probe = try JSONDecoder().decode(Probe.self, from: Data(result.stdout.utf8))
        #expect(!probe.chapters.isEmpty)
        #expect(reading.chapters.map(\.start) == probe.chapters.map { Double($0.startTime)! })
        let titles: [String?] = probe.chapters.map { $0.tags?["title"] }
        #expect(reading.chapters.map(\.title) == titles)
        if file == "hindenburg-chapters.mp3" {
            let urls = ["https://example.com/chapter1url", "https://example.com/chapter2url"]
            #expect(reading.chapters.map(\.url) == urls)
            #expect(reading.chapters.map(\.image) == [Chapter.imageInFile, Chapter.imageInFile])
        }
        if file == "auphonic-demo-1400art.mp3" {
            #expect(reading.chapters.allSatisfy { $0.image == Chapter.imageInFile })
            #expect(reading.chapters.filter { $0.url?.hasPrefix("http") == true }.count == 8)
        }
    }
}

/// Where `type` first occurs in `bytes` (after `start`).
func find(_ type: String, in bytes: [UInt8], after start: Int = 0) -> Int? {
    let needle = Array(type.utf8)
    guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
    return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
}

/// An ID3v2.3 or v2.4 tag, written frame by frame.
final class ID3Builder {
    let version: Int
    private var frames: [UInt8] = []
    private var unsynchronisedTag = false

    /// Two MPEG frame headers: audio after the tag.
    static let audio: [UInt8] =
        [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 413) + [0xFF, 0xFB, 0x90, 0x00]

    init(version: Int) { self.version = version }

    /// A frame as it sits in the tag; in v2.4 unsynchronised on its own (flag 0x0002), in v2.3
    /// by unsynchronising the whole tag.
    func built(_ id: String, _ body: [UInt8], unsynchronised: Bool = false) -> [UInt8] {
        var stored = body
        if unsynchronised && version == 4 { stored = Self.unsynchronise(body) }
        let size = version == 4 ? Self.syncsafe(stored.count) : Self.bigEndian(stored.count)
        let flags: [UInt8] = unsynchronised && version == 4 ? [0, 0x02] : [0, 0]
        return Array(id.utf8) + size + flags + stored
    }

    func frame(_ id: String, _ body: [UInt8], unsynchronised: Bool = false) {
        frames += built(id, body, unsynchronised: unsynchronised)
        if unsynchronised && version == 3 { unsynchronisedTag = true }
    }

    var bytes: [UInt8] {
        let body = unsynchronisedTag ? Self.unsynchronise(frames) : frames
        return Array("ID3".utf8) + [UInt8(version), 0, unsynchronisedTag ? 0x80 : 0] + Self.syncsafe(body.count) + body
    }

    static func chapter(_ id: String, start: UInt32, end: UInt32, frames: [[UInt8]]) -> [UInt8] {
        Array(id.utf8) + [0] + bigEndian(Int(start)) + bigEndian(Int(end)) + [
            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        ]
            + frames.flatMap { $0 }
    }

    static func tableOfContents(_ id: String, flags: UInt8, children: [String], count: Int? = nil) -> [UInt8] {
        Array(id.utf8) + [0, flags, UInt8(count ?? children.count)] + children.flatMap { Array($0.utf8) + [0] }
    }

    static func utf16BE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
    static func utf16LEWithBOM(_ text: String) -> [UInt8] {
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }
    static func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8(value >> $0 & 0x7F) } }
    static func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func unsynchronise(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        for byte in bytes {
            result.append(byte)
            if byte == 0xFF { result.append(0) }
        }
        return result
    }
}
