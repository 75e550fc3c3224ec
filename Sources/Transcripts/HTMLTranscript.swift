import HTML

/// The namespace's HTML transcript: `<cite>` names the speaker of what follows, `<time>` gives the
/// start of the next paragraph, `<p>` is what was said; a paragraph starting "Name:" names its
/// speaker too. Other tags are dropped and their text kept inside a paragraph, ignored outside one.
///
/// Read by libxml2's HTML parser (`HTMLDocument`), so a paragraph left open ends where a browser
/// ends it. A page with a `<script>` is refused: a transcript has no use for one, and a page that
/// needs one to show its text is not a transcript.
enum HTMLTranscript {
    /// - Throws: `TranscriptProblem` (`.html`): a `<script>`, a `<time>` that is not a time, no
    ///   paragraph with text.
    static func cues(_ bytes: [UInt8], maximumCues: Int) throws(TranscriptProblem) -> [TranscriptCue] {
        let text = TranscriptBytes.utf8OrWindows1252(bytes)
        guard !TranscriptBytes.lines(text).allSatisfy(TranscriptBytes.isBlank) else {
            throw TranscriptProblem(.html, "it is empty")
        }
        var collector = CueCollector(.html, maximumCues: maximumCues)
        var speaker: String?
        var start: Double?
        var cite: String?
        var time: String?
        var paragraph: String?
        func endParagraph() throws(TranscriptProblem) {
            guard let words = paragraph else { return }
            let (named, rest) = CueText.splittingSpeaker(CueText.cleaned(words))
            speaker = named ?? speaker
            try collector.append(TranscriptCue(start: start, speaker: speaker, text: rest))
            start = nil
            paragraph = nil
        }
        for event in HTMLDocument.events(text) {
            switch event {
            case .start(name: "script", _):
                throw TranscriptProblem(.html, "it is a page with a <script>, not a transcript")
            case .start(name: "cite", _): cite = ""
            case .start(name: "time", _): time = ""
            case .start(name: "p", _):
                try endParagraph()
                paragraph = ""
            case .start(name: "br", _): append(" ", to: &cite, &time, &paragraph)
            case .end(name: "cite"):
                let name = CueText.cleaned(cite ?? "").trimmingSuffix(while: { $0 == ":" || $0 == " " })
                speaker = name.isEmpty ? speaker : String(name)
                cite = nil
            case .end(name: "time"):
                let written = CueText.cleaned(time ?? "")
                guard let seconds = ClockTime.html.seconds(written) else {
                    throw TranscriptProblem(
                        .html, "\(CueText.quoted(written)) in a <time> is not a time (m:ss or h:mm:ss)")
                }
                start = seconds
                time = nil
            case .end(name: "p"): try endParagraph()
            case .text(let words): append(words, to: &cite, &time, &paragraph)
            case .start, .end: continue
            }
        }
        try endParagraph()
        return try collector.finished()
    }

    /// Adds text to the innermost of the elements being read: a `<cite>` or `<time>` inside a
    /// paragraph takes its own text.
    private static func append(
        _ words: String, to cite: inout String?, _ time: inout String?, _ paragraph: inout String?
    ) {
        if cite != nil {
            cite! += words
        } else if time != nil {
            time! += words
        } else if paragraph != nil {
            paragraph! += words
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(while isTrimmed: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, isTrimmed(self[index(before: end)]) { end = index(before: end) }
        return self[..<end]
    }
}
