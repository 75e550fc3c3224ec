import Strings
import Testing

@testable import Transcripts

struct TranscriptTests {
    /// A file larger than any transcript is refused before it is read.
    @Test func aFileOverTheSizeCapIsRefused() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: TranscriptProblem.maximumBytes + 1)
        for format in TranscriptFormat.allCases {
            #expect(throws: TranscriptProblem(format, "it is larger than 20 MiB")) {
                try Transcript(bytes, format: format)
            }
        }
    }

    /// More cues than the cap are refused, in every format (with a cap of 10: the real one's
    /// files take seconds to read in a debug build), and the real cap is 100,000.
    @Test func moreCuesThanTheCapAreRefused() throws {
        let count = 11
        let files: [(TranscriptFormat, String)] = [
            (.webVTT, "WEBVTT\n\n" + String(repeating: "00:01.000 --> 00:02.000\nx\n\n", count: count)),
            (.srt, String(repeating: "00:00:01,000 --> 00:00:02,000\nx\n\n", count: count)),
            (
                .json,
                #"{"segments": ["#
                    + repeatElement(#"{"startTime": 1, "body": "x."}"#, count: count).joined(separator: ",") + "]}"
            ),
            (.html, String(repeating: "<p>x</p>", count: count)),
            (.text, String(repeating: "x\n\n", count: count)),
        ]
        for (format, text) in files {
            #expect(throws: TranscriptProblem(format, "it has more than 10 cues")) {
                try Transcript(Array(text.utf8), format: format, maximumCues: 10)
            }
            #expect(try Transcript(Array(text.utf8), format: format, maximumCues: 11).cues.count == 11)
        }
        let text = String(repeating: "x\n\n", count: TranscriptProblem.maximumCues + 1)
        #expect(throws: TranscriptProblem(.text, "it has more than 100000 cues")) { try transcript(text, .text) }
    }

    /// Markup that never closes, or many `<` without a `>`, costs one pass, not one per `<`.
    @Test func unclosedMarkupIsReadInOnePass() throws {
        let text = "<p>Hello " + String(repeating: "<a ", count: 20_000)
        var cues = 0
        let elapsed = try ContinuousClock().measure { cues = try transcript(text, .html).cues.count }
        #expect(cues == 1)
        #expect(elapsed < .seconds(5))
    }

    @Test func problemsSayWhichFormatAndWhy() {
        #expect(
            "\(TranscriptProblem(.webVTT, "it is empty"))" == "the WebVTT transcript cannot be read: it is empty")
        #expect("\(TranscriptProblem(.text, "it is empty"))" == "the plain text transcript cannot be read: it is empty")
    }
}

/// Files broken at random, as a server or a disk might break them: whatever the bytes, a reader
/// gives a transcript whose cues hold printable text and times in order, or a problem; never a crash.
struct MutatedTranscriptTests {
    static let samples: [String] = [
        "WEBVTT\n\nNOTE x\n\nid\n00:01.000 --> 00:02.000 align:start\n<v.a Sam>Hi &amp; <i>bye</i><00:01.500>\n",
        "1\r\n00:00:01,000 --> 00:00:02,000\r\nSarah: <b>Hi</b> {\\an8}there\r\n\r\n2\r\n00:00:02,000 --> 00:00:03,000\r\nYes\r\n",
        #"{"segments": [{"speaker": "A", "startTime": 0.5, "endTime": 0.75, "body": "I"}, {"startTime": 1, "body": "am.\n"}]}"#,
        "<cite>Kevin:</cite><time>0:00</time><p>We &lt;3 <b>it</b><!-- x --></p><p>Tom: Yes</p>",
        "Kevin: Hello\nthere.\n\nAlban: Hi.\n",
    ]

    @Test func mutatedFilesGiveATranscriptOrAProblem() {
        var random = SeededRandom(seed: 26)
        let interesting = Array("<>&;:-.,{}\\/!\r\n 0v".utf8) + [0x00, 0x1B, 0x80, 0x9B, 0xC3, 0xE2, 0xFF]
        var transcripts = 0
        for sample in Self.samples {
            for _ in 0..<200 {
                var bytes = Array(sample.utf8)
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: bytes[index] = interesting.randomElement(using: &random)!
                    case 1: bytes.insert(interesting.randomElement(using: &random)!, at: index)
                    case 2 where bytes.count > 1: bytes.remove(at: index)
                    default: bytes.removeSubrange(index...)
                    }
                    if bytes.isEmpty { bytes = [0x0A] }
                }
                for format in TranscriptFormat.allCases {
                    guard let read = try? Transcript(bytes, format: format) else { continue }
                    transcripts += 1
                    for cue in read.cues {
                        let text = cue.text + (cue.speaker ?? "")
                        #expect(!text.unicodeScalars.contains(where: PrintableText.isControl), "\(bytes)")
                        #expect(!cue.text.isEmpty && cue.text == cue.text.trimmingWhitespace())
                        if let start = cue.start, let end = cue.end { #expect(start <= end) }
                    }
                }
            }
        }
        #expect(transcripts > 300)
    }
}

/// A small deterministic generator (SplitMix64), so a failure comes back on every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
