import Testing
import Transcripts

struct PlainTextTranscriptTests {
    @Test func oneParagraphIsOneCueWithoutTimes() throws {
        let read = try transcript("Welcome to the show.\nToday we talk\tabout\u{1B}[2J tea.\n", .text)
        #expect(read.format == .text)
        #expect(read.cues == [TranscriptCue(start: nil, text: "Welcome to the show. Today we talk about [2J tea.")])
    }

    /// Paragraphs by blank lines (CRLF too); a "Name:" line starts a cue whose speaker speaks on.
    @Test func paragraphsAndNamedSpeakersAreCues() throws {
        let text = "Intro music.\r\n\r\nKevin: Hello\r\nthere.\r\nAlban: Hi.\r\n\r\nMore from Alban.\r\n"
        #expect(
            try described(transcript(text, .text)) == [
                "- Intro music.", "- Kevin: Hello there.", "- Alban: Hi.", "- Alban: More from Alban.",
            ])
    }

    @Test func windows1252TextIsRead() throws {
        let read = try Transcript([0x93, 0x48, 0x69, 0x94, 0x20, 0x97, 0x20, 0x63, 0x61, 0x66, 0xE9], format: .text)
        #expect(read.cues.map(\.text) == ["\u{201C}Hi\u{201D} \u{2014} café"])
    }

    @Test func emptyTextIsAProblem() {
        for text in ["", "\n \r\n\t\n"] {
            #expect(throws: TranscriptProblem(.text, "it is empty")) { try transcript(text, .text) }
        }
    }
}
