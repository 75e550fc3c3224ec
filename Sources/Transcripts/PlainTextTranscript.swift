/// A plain-text transcript: no times, so each paragraph (lines up to a blank one) is a cue, and a
/// line starting "Name:" starts a new one with that speaker, who speaks until another is named.
/// One paragraph is one cue. In UTF-8, or Windows-1252 when the bytes are not UTF-8.
enum PlainTextTranscript {
    /// - Throws: `TranscriptProblem` (`.text`) when there is no text.
    static func cues(_ bytes: [UInt8], maximumCues: Int) throws(TranscriptProblem) -> [TranscriptCue] {
        var collector = CueCollector(.text, maximumCues: maximumCues)
        var speaker: String?
        var paragraph: [Substring] = []
        func endParagraph() throws(TranscriptProblem) {
            guard !paragraph.isEmpty else { return }
            try collector.append(
                TranscriptCue(start: nil, speaker: speaker, text: CueText.cleaned(paragraph.joined(separator: " "))))
            paragraph = []
        }
        for line in TranscriptBytes.lines(TranscriptBytes.utf8OrWindows1252(bytes)) {
            guard !TranscriptBytes.isBlank(line) else {
                try endParagraph()
                continue
            }
            let (named, rest) = CueText.splittingSpeaker(CueText.cleaned(line))
            if let named {
                try endParagraph()
                speaker = named
                paragraph = [rest[...]]
            } else {
                paragraph.append(line)
            }
        }
        try endParagraph()
        guard !collector.cues.isEmpty else { throw TranscriptProblem(.text, "it is empty") }
        return collector.cues
    }
}
