import Transcripts

/// The transcript in `text`'s UTF-8, read as `format`.
func transcript(_ text: String, _ format: TranscriptFormat) throws(TranscriptProblem) -> Transcript {
    try Transcript(Array(text.utf8), format: format)
}

/// Each cue as "start-end speaker: text" (times in seconds, `-` for none, one `-` for an untimed cue), to compare at a glance.
func described(_ transcript: Transcript) -> [String] {
    transcript.cues.map { cue in
        let times =
            cue.start == nil && cue.end == nil
            ? "-" : [cue.start, cue.end].map { $0.map { "\($0)" } ?? "-" }.joined(separator: "-")
        return "\(times) \(cue.speaker.map { "\($0): " } ?? "")\(cue.text)"
    }
}
