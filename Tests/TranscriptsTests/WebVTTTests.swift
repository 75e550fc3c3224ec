import Testing
import Transcripts

struct WebVTTTests {
    /// The W3C's features as podcasts use them: a header, STYLE, REGION and NOTE blocks, cue ids,
    /// cue settings, hours present and absent, voices with and without classes, tags and
    /// timestamps inside the text, and the character references WebVTT names.
    @Test func readsCuesVoicesSettingsAndEntities() throws {
        let text = """
            \u{FEFF}WEBVTT - An episode
            Kind: captions
            Language: en

            STYLE
            ::cue { color: yellow }

            REGION
            id:fred width:40%

            NOTE This note
            spans two lines --> and has an arrow

            intro
            00:00.000 --> 00:05.250 align:start position:10%
            <v John>Podcasting 2.0 is <i>really</i> changing
            the game.</v>

            NOTE another

            00:00:05.250 --> 00:00:10.000
            <v.loud Tom Jones>Yeah, <b>absolutely</b> &amp; <c.hi>more</c> &lt;3 &gt;_&gt;

            01:00:10.000 --> 01:00:12.500 line:0
            <v Tom>Ends<00:00:11.000> an&nbsp;hour &lrm;in.
            """
        let read = try transcript(text, .webVTT)
        #expect(read.format == .webVTT)
        #expect(
            described(read) == [
                "0.0-5.25 John: Podcasting 2.0 is really changing the game.",
                "5.25-10.0 Tom Jones: Yeah, absolutely & more <3 >_>",
                "3610.0-3612.5 Tom: Ends an\u{A0}hour \u{200E}in.",
            ])
    }

    /// A file written on Windows, on an old Mac, and on Unix reads the same.
    @Test func crlfCrAndLfLineEndsReadAlike() throws {
        let lines = [
            "WEBVTT", "", "1", "00:01.000 --> 00:02.000", "<v Ann>One", "line", "", "00:03.000 --> 00:04.000", "Two",
            "",
        ]
        let expected = ["1.0-2.0 Ann: One line", "3.0-4.0 Ann: Two"]
        for ending in ["\n", "\r\n", "\r"] {
            #expect(
                try described(transcript(lines.joined(separator: ending), .webVTT)) == expected,
                "\(ending.debugDescription)")
        }
    }

    /// Without voices, a "Name:" prefix names the speaker; a cue with neither keeps the last one.
    @Test func nameColonPrefixNamesTheSpeakerWithoutVoices() throws {
        let text = "WEBVTT\n\n00:01.000 --> 00:02.000\nSarah: Hello there\n\n00:02.000 --> 00:03.000\nand welcome\n"
        #expect(
            try described(transcript(text, .webVTT)) == ["1.0-2.0 Sarah: Hello there", "2.0-3.0 Sarah: and welcome"])
    }

    @Test func aGeneratedThousandCueFileReadsWhole() throws {
        var text = "WEBVTT\n\n"
        for index in 0..<1000 {
            let start = index * 2
            text +=
                "cue-\(index)\n\(clock(start)).000 --> \(clock(start + 2)).000\n<v Speaker \(index % 3)>Line \(index)\n\n"
        }
        let read = try transcript(text, .webVTT)
        #expect(read.cues.count == 1000)
        #expect(read.cues[999] == TranscriptCue(start: 1998, end: 2000, speaker: "Speaker 0", text: "Line 999"))
        #expect(zip(read.cues, read.cues.dropFirst()).allSatisfy { $0.end == $1.start })
    }

    private func clock(_ seconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }

    /// Control characters in a cue (an ESC that would drive the terminal, a C1 CSI, a bidirectional
    /// override) never reach the text.
    @Test func controlCharactersNeverReachCueText() throws {
        let text = "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ev\u{1B}il>Red \u{1B}[31mtext\u{9B}2J\u{202E}gnp.exe\u{7}\n"
        let cue = try #require(try transcript(text, .webVTT).cues.first)
        #expect(cue.text == "Red [31mtext 2J gnp.exe")
        #expect(cue.speaker == "Ev il")
    }

    @Test func malformedFilesAreOneProblemEach() {
        let cases: [(String, String)] = [
            ("", "it is empty"),
            ("1\n00:00:01,000 --> 00:00:02,000\nAn SRT file\n", #"it does not start with "WEBVTT""#),
            ("WEBVTTX\n\n00:01.000 --> 00:02.000\nHi\n", #"it does not start with "WEBVTT""#),
            (
                "WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n00:1.000 --> 00:03.000\nBad\n",
                #"line 6: "00:1.000" is not a time (mm:ss.ttt or hh:mm:ss.ttt)"#
            ),
            (
                "WEBVTT\n\n00:01,000 --> 00:02.000\nComma\n",
                #"line 3: "00:01,000" is not a time (mm:ss.ttt or hh:mm:ss.ttt)"#
            ),
            (
                "WEBVTT\n\n00:01.000 --> 00:61.000\nSixty-one\n",
                #"line 3: "00:61.000" is not a time (mm:ss.ttt or hh:mm:ss.ttt)"#
            ),
            ("WEBVTT\n\n00:01.000 -->\nNo end\n", #"line 3: "" is not a time (mm:ss.ttt or hh:mm:ss.ttt)"#),
            (
                "WEBVTT\n\nid\n00:05.000 --> 00:04.000\nBackwards\n",
                #"line 4: "00:05.000 --> 00:04.000" ends before it starts"#
            ),
            ("WEBVTT\n\nNOTE nothing but a note\n", "it has no text"),
            ("WEBVTT\n\n00:01.000 --> 00:02.000\n<i></i>\n", "it has no text"),
        ]
        for (text, reason) in cases {
            #expect(throws: TranscriptProblem(.webVTT, reason), "\(text.debugDescription)") {
                try transcript(text, .webVTT)
            }
        }
    }
}
