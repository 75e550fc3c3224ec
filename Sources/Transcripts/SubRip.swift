import Strings

/// SRT (SubRip), as the namespace's transcripts page shows it: blocks separated by blank lines,
/// each an optional cue number, `00:00:00,000 --> 00:00:02,760`, and the text, which may carry
/// HTML-ish tags (`<i>`, `<font>`) and `{\an8}` overrides, dropped here. A cue starting "Name:"
/// names the speaker until another does ("Start a new card when the speaker changes"). Written
/// in UTF-8 or, on Windows, in Windows-1252.
enum SubRip {
    /// - Throws: `TranscriptProblem` (`.srt`): text before any cue's times, a cue number without
    ///   times, times that are not times, a cue that ends before it starts, no text at all.
    static func cues(_ bytes: [UInt8], maximumCues: Int) throws(TranscriptProblem) -> [TranscriptCue] {
        let lines = TranscriptBytes.lines(TranscriptBytes.utf8OrWindows1252(bytes))
        guard !lines.allSatisfy(TranscriptBytes.isBlank) else { throw TranscriptProblem(.srt, "it is empty") }
        var collector = CueCollector(.srt, maximumCues: maximumCues)
        var speaker: String?
        var index = 0
        while index < lines.count {
            guard !TranscriptBytes.isBlank(lines[index]) else {
                index += 1
                continue
            }
            let blockStart = index
            while index < lines.count, !TranscriptBytes.isBlank(lines[index]) { index += 1 }
            let block = lines[blockStart..<index]
            let numbered = block.first!.trimmingWhitespace().allSatisfy { $0.isASCII && $0.isNumber }
            let timing = numbered ? blockStart + 1 : blockStart
            guard timing < index, TranscriptBytes.arrow(in: block[timing]) != nil else {
                let first = block.first!.trimmingWhitespace()
                throw TranscriptProblem(
                    .srt,
                    "line \(blockStart + 1): "
                        + (numbered
                            ? "cue \(first.prefix(20)) has no times" : "\(CueText.quoted(first)) is not a cue's times"))
            }
            let (start, end) = try ClockTime.srt.cueTimes(
                block[timing], number: timing + 1, format: .srt, pattern: "hh:mm:ss,ttt")
            let (named, text) = CueText.splittingSpeaker(cueText(block[(timing + 1)...].joined(separator: "\n")))
            speaker = named ?? speaker
            try collector.append(
                TranscriptCue(start: start, end: end, speaker: speaker, text: text),
                timing: "line \(timing + 1): \(CueText.quoted(block[timing]))")
        }
        return try collector.finished()
    }

    /// A cue's text without tags and `{\...}` overrides (`{\an8}`, `{\i1}`), as one line.
    private static func cueText(_ text: String) -> String {
        var plain = ""
        for case .text(let words) in Markup.tokens(text, .subRip) { plain += words }
        return CueText.cleaned(withoutOverrides(plain))
    }

    private static func withoutOverrides(_ text: String) -> String {
        var rest = text[...]
        var result = ""
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "{")) {
            let afterOpen = rest.utf8.index(after: open)
            guard afterOpen != rest.endIndex, rest.utf8[afterOpen] == UInt8(ascii: "\\"),
                let close = rest.utf8[afterOpen...].firstIndex(of: UInt8(ascii: "}"))
            else {
                result += rest[..<afterOpen]
                rest = rest[afterOpen...]
                continue
            }
            result += rest[..<open]
            rest = rest[rest.utf8.index(after: close)...]
        }
        return result + rest
    }
}
