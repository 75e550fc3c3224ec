/// WebVTT (https://www.w3.org/TR/webvtt1/), as podcasts write it: `WEBVTT`, a header, then blocks
/// separated by blank lines. A cue is an optional id line, `start --> end` with optional cue
/// settings after it, and its text, whose first voice (`<v Sam>`, `<v.loud Sam>`) is the speaker.
/// NOTE, STYLE and REGION blocks and blocks without times are skipped, as the format says.
enum WebVTT {
    /// - Throws: `TranscriptProblem` (`.webVTT`): no `WEBVTT` first, a timing line whose times are
    ///   not times, a cue that ends before it starts, no text at all.
    static func cues(_ bytes: [UInt8], maximumCues: Int) throws(TranscriptProblem) -> [TranscriptCue] {
        guard !bytes.isEmpty else { throw TranscriptProblem(.webVTT, "it is empty") }
        let lines = TranscriptBytes.lines(TranscriptBytes.utf8(bytes))
        guard startsBlock(lines[0], keyword: "WEBVTT") else {
            throw TranscriptProblem(.webVTT, "it does not start with \"WEBVTT\"")
        }
        // The header runs to the first blank line (or to a timing line, when a writer left none).
        var index = 1
        while index < lines.count, !lines[index].isEmpty, TranscriptBytes.arrow(in: lines[index]) == nil { index += 1 }

        var collector = CueCollector(.webVTT, maximumCues: maximumCues)
        var speaker: String?
        while index < lines.count {
            guard !lines[index].isEmpty else {
                index += 1
                continue
            }
            let blockStart = index
            while index < lines.count, !lines[index].isEmpty { index += 1 }
            let block = lines[blockStart..<index]
            guard !["NOTE", "STYLE", "REGION"].contains(where: { startsBlock(block.first!, keyword: $0) }),
                let timing = block.prefix(2).firstIndex(where: { TranscriptBytes.arrow(in: $0) != nil })
            else { continue }
            let (start, end) = try ClockTime.webVTT.cueTimes(
                block[timing], number: timing + 1, format: .webVTT, pattern: "mm:ss.ttt or hh:mm:ss.ttt")
            // A line with "-->" ends the cue's text (the next cue began without a blank line).
            let payload = block[(timing + 1)...].prefix { TranscriptBytes.arrow(in: $0) == nil }
            let (voice, text) = cueText(payload.joined(separator: "\n"))
            let (named, rest) = voice == nil ? CueText.splittingSpeaker(text) : (voice, text)
            speaker = named ?? speaker
            try collector.append(
                TranscriptCue(start: start, end: end, speaker: speaker, text: rest),
                timing: "line \(timing + 1): \(CueText.quoted(block[timing]))")
        }
        return try collector.finished()
    }

    /// Whether `line` is `keyword` alone or followed by a space or a tab (`WEBVTT - title`, `NOTE
    /// text`).
    private static func startsBlock(_ line: Substring, keyword: String) -> Bool {
        guard line.hasPrefix(keyword) else { return false }
        let rest = line.dropFirst(keyword.count)
        return rest.isEmpty || rest.first == " " || rest.first == "\t"
    }

    /// A cue's text without its tags and with its character references decoded, and the name of
    /// its first voice.
    private static func cueText(_ payload: String) -> (voice: String?, text: String) {
        var voice: String?
        var text = ""
        for token in Markup.tokens(payload, .webVTT) {
            switch token {
            case .text(let words): text += words
            case .startTag(name: "v", let annotation) where voice == nil:
                let name = CueText.cleaned(annotation)
                voice = name.isEmpty ? nil : name
            case .startTag, .endTag: continue
            }
        }
        return (voice, CueText.cleaned(text))
    }
}
