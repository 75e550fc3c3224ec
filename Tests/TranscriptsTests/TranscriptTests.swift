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
