import EpisodeStore
import Foundation
import Testing
import Transcripts

@testable import PodcliKit

/// How a transcript's cues become the stretches `list -s` searches.
struct EpisodeTranscriptTests {
    @Test func cuesAreGroupedByAboutThirtySecondsAndBySpeaker() {
        let transcript = Transcript(
            cues: [
                TranscriptCue(start: 0, end: 2, speaker: "Host", text: "Welcome."),
                TranscriptCue(start: 2, end: 10, speaker: "Host", text: "Today, zeppelins."),
                TranscriptCue(start: 10, end: 12, speaker: "Guest", text: "Thanks."),
                TranscriptCue(start: 12, speaker: "Guest", text: ""),
                TranscriptCue(start: 45, end: 50, speaker: "Guest", text: "Later on."),
            ], format: .json)
        #expect(
            EpisodeTranscript.segments(of: transcript) == [
                TranscriptSegment(
                    startMilliseconds: 0, endMilliseconds: 10_000, speaker: "Host", text: "Welcome. Today, zeppelins."),
                TranscriptSegment(
                    startMilliseconds: 10_000, endMilliseconds: 12_000, speaker: "Guest", text: "Thanks."),
                TranscriptSegment(
                    startMilliseconds: 45_000, endMilliseconds: 50_000, speaker: "Guest", text: "Later on."),
            ])
    }

    /// Text without times (plain text, untimed HTML) is found from where the last time was, in
    /// stretches of bounded length.
    @Test func aCueWithoutAStartTakesThePreviousOnesAndUntimedTextIsCutInStretches() {
        let timed = Transcript(
            cues: [TranscriptCue(start: 61.5, text: "Timed."), TranscriptCue(start: nil, text: "Untimed after it.")],
            format: .html)
        #expect(
            EpisodeTranscript.segments(of: timed) == [
                TranscriptSegment(startMilliseconds: 61_500, text: "Timed. Untimed after it.")
            ])
        let sentence = String(repeating: "word ", count: 60).trimmingCharacters(in: .whitespaces)
        let untimed = Transcript(
            cues: Array(repeating: TranscriptCue(start: nil, text: sentence), count: 10), format: .text)
        let segments = EpisodeTranscript.segments(of: untimed)
        #expect(segments.count > 1)
        #expect(
            segments.allSatisfy { $0.startMilliseconds == 0 && $0.text.utf8.count <= EpisodeTranscript.segmentBytes })
        #expect(
            segments.map(\.text).joined(separator: " ") == Array(repeating: sentence, count: 10).joined(separator: " "))
    }
}
