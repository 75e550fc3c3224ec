import Strings

/// The rules every format's text goes through on its way into a `TranscriptCue`.
enum CueText {
    /// `text` as one printable line: each run of white space, line breaks and control characters
    /// (`PrintableText.isControl`: C0, C1, bidirectional overrides) one space, none at either end.
    /// A transcript comes from a server: an ESC in it must not reach a terminal.
    static func cleaned(_ text: some StringProtocol) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isSeparator(scalar) {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text from the file for a message, in quotes: cleaned, and cut with "…" past 60 characters
    /// (a line of the file may be a megabyte long).
    static func quoted(_ text: some StringProtocol) -> String {
        let line = cleaned(text)
        return "\"" + (line.count > 60 ? line.prefix(59) + "…" : line[...]) + "\""
    }

    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\u{2028}" || scalar == "\u{2029}" || PrintableText.isControl(scalar)
    }

    /// A cleaned `text` split into the speaker its "Name:" prefix names, as transcripts written for
    /// people do ("Sarah: In today's episode", the namespace's SRT and HTML examples), and the rest.
    /// A prefix counts only when it looks like a name: one to four words of at most 40 characters
    /// together, each starting with a capital letter (or a letter of a script without case; later
    /// words may be numbers, "Speaker 2"), then the colon and a space. "Note: ..." is taken for a
    /// name; "My question is: ..." and "10:30" are not.
    static func splittingSpeaker(_ text: String) -> (speaker: String?, text: String) {
        guard let colon = text.firstIndex(of: ":"), text.distance(from: text.startIndex, to: colon) <= 41 else {
            return (nil, text)
        }
        let rest = text[text.index(after: colon)...]
        guard rest.isEmpty || rest.first == " " else { return (nil, text) }
        let name = text[..<colon].trimmingWhitespace()
        let words = name.split(separator: " ")
        guard (1...4).contains(words.count), words.enumerated().allSatisfy({ looksLikeName($1, first: $0 == 0) })
        else { return (nil, text) }
        return (name, String(rest.dropFirst()))
    }

    private static func looksLikeName(_ word: Substring, first: Bool) -> Bool {
        guard let initial = word.unicodeScalars.first else { return false }
        if !first, word.allSatisfy(\.isASCII), word.allSatisfy(\.isNumber) { return true }
        let properties = initial.properties
        guard properties.isAlphabetic, !properties.isLowercase else { return false }
        return word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ".-'’".unicodeScalars.contains($0) }
    }
}

/// How the text formats are read from bytes, and their lines.
enum TranscriptBytes {
    /// `bytes` as UTF-8 without its byte-order mark; invalid sequences U+FFFD (as WebVTT says).
    static func utf8(_ bytes: [UInt8]) -> String {
        String(decoding: withoutByteOrderMark(bytes), as: UTF8.self)
    }

    /// `bytes` as UTF-8 when they are, else as Windows-1252: what subtitle files written on
    /// Windows are in, and every byte is a character of it.
    static func utf8OrWindows1252(_ bytes: [UInt8]) -> String {
        let bytes = withoutByteOrderMark(bytes)
        return String(validating: bytes, as: UTF8.self) ?? Windows1252.decode(bytes)
    }

    private static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }

    /// The lines of `text`, ended by CR, LF or CRLF (a file written on any system).
    static func lines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte == 0x0A || byte == 0x0D else {
                utf8.formIndex(after: &index)
                continue
            }
            lines.append(text[start..<index])
            utf8.formIndex(after: &index)
            if byte == 0x0D, index != utf8.endIndex, utf8[index] == 0x0A { utf8.formIndex(after: &index) }
            start = index
        }
        lines.append(text[start...])
        return lines
    }

    /// Where `-->`, which makes a line a cue's timing line, begins in `line`; nil if it has none.
    static func arrow(in line: Substring) -> Substring.Index? {
        let utf8 = line.utf8
        var index = utf8.startIndex
        while let dash = utf8[index...].firstIndex(of: UInt8(ascii: "-")) {
            let rest = utf8[dash...]
            if rest.starts(with: "-->".utf8) { return dash }
            index = utf8.index(after: dash)
        }
        return nil
    }

    /// Whether `line` has nothing but white space.
    static func isBlank(_ line: Substring) -> Bool { line.allSatisfy(\.isWhitespace) }
}

/// The cues of one transcript as they are read: each checked against the bounds and its times,
/// empty ones left out.
struct CueCollector {
    let format: TranscriptFormat
    let maximumCues: Int
    private(set) var cues: [TranscriptCue] = []

    init(_ format: TranscriptFormat, maximumCues: Int) {
        self.format = format
        self.maximumCues = maximumCues
    }

    /// Adds a cue unless its text is empty.
    /// - Throws: when it ends before it starts (`timing` says where, for the message) or is one
    ///   cue too many.
    mutating func append(_ cue: TranscriptCue, timing: @autoclosure () -> String = "") throws(TranscriptProblem) {
        if let start = cue.start, let end = cue.end, end < start {
            throw TranscriptProblem(format, "\(timing()) ends before it starts")
        }
        guard !cue.text.isEmpty else { return }
        guard cues.count < maximumCues else {
            throw TranscriptProblem(format, "it has more than \(maximumCues) cues")
        }
        cues.append(cue)
    }

    /// The cues read.
    /// - Throws: when there are none: a transcript with nothing in it is no transcript.
    func finished() throws(TranscriptProblem) -> [TranscriptCue] {
        guard !cues.isEmpty else { throw TranscriptProblem(format, "it has no text") }
        return cues
    }
}
