import Testing
import Transcripts

@testable import PodcliKit

/// The line `t` shows under the now-playing line.
@Suite struct TranscriptKeyTests {

    @Test func theCueBeingSpokenWithItsSpeakerWhileWanted() {
        var cues = PlayingTranscript(
            Transcript(
                cues: [
                    TranscriptCue(start: 2, speaker: "Ann", text: "Hello."),
                    TranscriptCue(start: 5, text: "Unnamed."),
                ], format: .srt))
        var notes: [String] = []
        #expect(cues.line(at: 0, wanted: true, episodeID: 7) { notes.append($0) } == "Ann: Hello.")
        #expect(cues.line(at: 4.9, wanted: true, episodeID: 7) { notes.append($0) } == "Ann: Hello.")
        #expect(cues.line(at: 5, wanted: true, episodeID: 7) { notes.append($0) } == "Unnamed.")
        #expect(cues.line(at: 5, wanted: false, episodeID: 7) { notes.append($0) } == nil)
        #expect(notes.isEmpty)
    }

    @Test func noTranscriptIsSaidOncePerPress() {
        var cues = PlayingTranscript(nil)
        var notes: [String] = []
        for _ in 0..<3 { #expect(cues.line(at: 1, wanted: true, episodeID: 7) { notes.append($0) } == nil) }
        #expect(notes == ["#7 has no transcript."])
        _ = cues.line(at: 1, wanted: false, episodeID: 7) { notes.append($0) }
        _ = cues.line(at: 1, wanted: true, episodeID: 7) { notes.append($0) }
        #expect(notes.count == 2)
    }
}
