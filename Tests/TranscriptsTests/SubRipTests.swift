import Testing
import Transcripts

struct SubRipTests {
    /// The namespace's example: numbered cards, a speaker named when the speaker changes, who
    /// speaks until another is named; CRLF, a BOM, tags and overrides dropped, "Q&A" kept as written.
    @Test func readsNumberedCuesWithSpeakersTagsAndBOM() throws {
        let text = [
            "\u{FEFF}1", "00:00:00,000 --> 00:00:02,760", "Sarah: In today's episode,",
            "you'll learn whether or not you", "",
            "2", "00:00:02,760 --> 00:00:06,090 X1:40 X2:600 Y1:20 Y2:50",
            "<i>should</i> have a <font color=\"#fff\">podcast</font>",
            "trailer. {\\an8}Podcasting Q&A", "",
            "3", "00:00:19,080 --> 00:00:21,450", "Gillian: Hi Buzzsprout, a < b", "", "",
        ].joined(separator: "\r\n")
        #expect(
            try described(transcript(text, .srt)) == [
                "0.0-2.76 Sarah: In today's episode, you'll learn whether or not you",
                "2.76-6.09 Sarah: should have a podcast trailer. Podcasting Q&A",
                "19.08-21.45 Gillian: Hi Buzzsprout, a < b",
            ])
    }

    /// Cue numbers left out, full stops for commas, hours left out: as some tools write them.
    @Test func readsCuesWithoutNumbersAndWithFullStops() throws {
        let text = "00:00:01.500 --> 00:00:03.000\nFirst\n\n00:04,000 --> 00:05,000\nMy question is: do we need one?\n"
        #expect(try described(transcript(text, .srt)) == ["1.5-3.0 First", "4.0-5.0 My question is: do we need one?"])
    }

    /// Bytes that are not UTF-8 are Windows-1252: curly quotes, a euro sign and é as Windows wrote them.
    @Test func readsWindows1252WhenNotUTF8() throws {
        let bytes: [UInt8] =
            Array("1\r\n00:00:01,000 --> 00:00:02,000\r\n".utf8) + [
                0x93, 0x43, 0x61, 0x66, 0xE9, 0x94, 0x20, 0x80, 0x35,
            ]
        let read = try Transcript(bytes, format: .srt)
        #expect(read.cues.map(\.text) == ["\u{201C}Café\u{201D} €5"])
    }

    @Test func malformedFilesAreOneProblemEach() {
        let cases: [(String, String)] = [
            ("", "it is empty"),
            (" \n\r\n", "it is empty"),
            ("Just some words\n", #"line 1: "Just some words" is not a cue's times"#),
            ("1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\nNo times here\n", "line 5: cue 2 has no times"),
            ("1\n00:00:01,000 --> 00:00:0x,000\nHi\n", #"line 2: "00:00:0x,000" is not a time (hh:mm:ss,ttt)"#),
            (
                "1\n00:00:03,000 --> 00:00:02,000\nHi\n",
                #"line 2: "00:00:03,000 --> 00:00:02,000" ends before it starts"#
            ),
            ("1\n00:00:01,000 --> 00:00:02,000\n<b></b>\n", "it has no text"),
            // A message quotes the file, but not a megabyte of it, nor its control characters.
            (
                String(repeating: "x", count: 1000) + "\n",
                #"line 1: ""# + String(repeating: "x", count: 59) + #"…" is not a cue's times"#
            ),
            ("\u{1B}[2J --> 1\n", #"line 1: "[2J" is not a time (hh:mm:ss,ttt)"#),
        ]
        for (text, reason) in cases {
            #expect(throws: TranscriptProblem(.srt, reason), "\(text.debugDescription)") { try transcript(text, .srt) }
        }
    }
}
