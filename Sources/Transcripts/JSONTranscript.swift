import FoundationEssentials
import Strings

/// The Podcasting 2.0 JSON transcript
/// (https://github.com/Podcastindex-org/podcast-namespace/blob/main/transcripts/transcripts.md):
/// `{"version": "1.0.0", "segments": [{"speaker": "Luke", "startTime": 2.75, "endTime": 3.0,
/// "body": "Nooooo"}]}`, `speaker` and `endTime` optional. Writers time every word as a segment;
/// consecutive segments of one speaker are joined into a cue until a sentence ends (a body ending
/// in `.`, `?`, `!`, `…` or a line break) or the cue reaches `joinedLength` characters.
enum JSONTranscript {
    /// Where joining segments stops when no sentence ends: about three lines of a terminal.
    static let joinedLength = 200

    /// - Throws: `TranscriptProblem` (`.json`): not JSON (a file cut short), no `segments`, a
    ///   segment without a `startTime` of zero or more seconds or a `body`, one ending before it
    ///   starts, no text at all.
    static func cues(_ bytes: [UInt8], maximumCues: Int) throws(TranscriptProblem) -> [TranscriptCue] {
        guard !bytes.isEmpty else { throw TranscriptProblem(.json, "it is empty") }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw TranscriptProblem(.json, reason(error))
        } catch {
            throw TranscriptProblem(.json, "it is not JSON")
        }
        var collector = CueCollector(.json, maximumCues: maximumCues)
        var joined: (cue: TranscriptCue, sentenceEnded: Bool)?
        for (index, segment) in document.segments.enumerated() {
            guard segment.startTime.isFinite, segment.startTime >= 0 else {
                throw TranscriptProblem(.json, "segment \(index + 1) starts at \(segment.startTime) s")
            }
            let speaker = segment.speaker.map(CueText.cleaned).flatMap { $0.isEmpty ? nil : $0 }
            let text = CueText.cleaned(segment.body)
            let end = segment.endTime.flatMap { $0.isFinite ? $0 : nil }
            if let end, end < segment.startTime {
                throw TranscriptProblem(
                    .json, "segment \(index + 1) ends (\(end) s) before it starts (\(segment.startTime) s)")
            }
            if case (var cue, false)? = joined, cue.speaker == speaker,
                cue.text.count + text.count < joinedLength
            {
                cue.text += cue.text.isEmpty || text.isEmpty ? text : " " + text
                cue.end = end
                joined = (cue, endsSentence(segment.body))
            } else {
                if let cue = joined?.cue { try collector.append(cue) }
                joined = (
                    TranscriptCue(start: segment.startTime, end: end, speaker: speaker, text: text),
                    endsSentence(segment.body)
                )
            }
        }
        if let cue = joined?.cue { try collector.append(cue) }
        return try collector.finished()
    }

    private static func endsSentence(_ body: String) -> Bool {
        if body.last?.isNewline == true { return true }
        guard let last = body.trimmingWhitespace().last else { return false }
        return ".?!…".contains(last)
    }

    /// What a decoding error says of the document, as a phrase.
    private static func reason(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            let path = self.path(context.codingPath)
            return path.isEmpty ? "it has no \"\(key.stringValue)\"" : "\"\(path)\" has no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = self.path(context.codingPath)
            return path.isEmpty ? "it is not an object" : "\"\(path)\" is not what the format says"
        default:
            return "it is not JSON"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    private struct Document: Decodable {
        let segments: [Segment]
    }

    private struct Segment: Decodable {
        let speaker: String?
        let startTime: Double
        let endTime: Double?
        let body: String
    }
}
