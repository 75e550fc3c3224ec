import Testing
import Transcripts

struct JSONTranscriptTests {
    /// The namespace's example: one segment a word, joined into a cue per speaker and sentence.
    @Test func joinsWordSegmentsOfOneSpeakerIntoSentences() throws {
        let text = #"""
            {"version": "1.0.0", "segments": [
              {"speaker": "Darth Vader", "startTime": 0.5, "endTime": 0.75, "body": "I"},
              {"speaker": "Darth Vader", "startTime": 1, "endTime": 1.25, "body": "am"},
              {"speaker": "Darth Vader", "startTime": 1.5, "endTime": 2.0, "body": "your"},
              {"speaker": "Darth Vader", "startTime": 2.25, "endTime": 2.50, "body": "father.\n"},
              {"speaker": "Darth Vader", "startTime": 2.6, "endTime": 2.7, "body": "Search"},
              {"speaker": "Luke", "startTime": 2.75, "endTime": 3.0, "body": "Nooooo"},
              {"speaker": "Luke", "startTime": 3.5, "endTime": 3.75, "body": "Ṅo & \u001b[2Jno"}
            ]}
            """#
        let read = try transcript(text, .json)
        #expect(read.format == .json)
        #expect(
            described(read) == [
                "0.5-2.5 Darth Vader: I am your father.", "2.6-2.7 Darth Vader: Search",
                "2.75-3.75 Luke: Nooooo Ṅo & [2Jno",
            ])
    }

    /// Segments without end times or speakers, each a sentence: a cue each, ends unknown.
    @Test func readsSegmentsWithoutEndTimesOrSpeakers() throws {
        let text = #"{"segments": [{"startTime": 0, "body": "Hello."}, {"startTime": 4.5, "body": "Goodbye!"}]}"#
        #expect(try described(transcript(text, .json)) == ["0.0-- Hello.", "4.5-- Goodbye!"])
    }

    /// A speaker who talks on without punctuation is cut into cues of readable length.
    @Test func longUnpunctuatedSpeechIsCutIntoBoundedCues() throws {
        let segments = (0..<300).map {
            #"{"speaker": "A", "startTime": \#($0), "endTime": \#($0 + 1), "body": "word"}"#
        }
        let read = try transcript(#"{"segments": [\#(segments.joined(separator: ","))]}"#, .json)
        #expect(read.cues.count > 1)
        #expect(read.cues.allSatisfy { $0.text.count < 200 })
        #expect(read.cues.map { $0.text.split(separator: " ").count }.reduce(0, +) == 300)
    }

    @Test func malformedFilesAreOneProblemEach() {
        let cases: [(String, String)] = [
            ("", "it is empty"),
            (#"{"version": "1.0.0", "segments": [{"startTime": 0, "bo"#, "it is not JSON"),
            ("<html>Not found</html>", "it is not JSON"),
            (#"{"version": "1.0.0"}"#, #"it has no "segments""#),
            (#"[1]"#, "it is not an object"),
            (#"{"segments": [{"body": "No start"}]}"#, #""segments.0" has no "startTime""#),
            (#"{"segments": [{"startTime": 1}]}"#, #""segments.0" has no "body""#),
            (
                #"{"segments": [{"startTime": "0:01", "body": "x"}]}"#,
                #""segments.0.startTime" is not what the format says"#
            ),
            (#"{"segments": [{"startTime": -1, "body": "x"}]}"#, "segment 1 starts at -1.0 s"),
            (
                #"{"segments": [{"startTime": 5, "endTime": 4, "body": "x"}]}"#,
                "segment 1 ends (4.0 s) before it starts (5.0 s)"
            ),
            (#"{"segments": []}"#, "it has no text"),
        ]
        for (text, reason) in cases {
            #expect(throws: TranscriptProblem(.json, reason), "\(text)") { try transcript(text, .json) }
        }
    }
}
