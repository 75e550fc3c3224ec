import Strings

/// Times written as a clock reads them, `[hours:]minutes:seconds[.fraction]`, in seconds: the
/// timestamps of WebVTT (`01:02.500`, `1:01:02.500`), SRT (`00:01:02,500`) and HTML `<time>`
/// (`0:09`). Minutes and seconds are below 60; seconds have two digits.
struct ClockTime {
    /// The bytes that may separate seconds from their fraction.
    let fractionSeparators: [UInt8]
    /// How many digits the fraction may have; a lower bound of 0 makes it optional.
    let fractionDigits: ClosedRange<Int>

    /// WebVTT: hours optional, a full stop and exactly three digits.
    static let webVTT = ClockTime(fractionSeparators: [UInt8(ascii: ".")], fractionDigits: 3...3)
    /// SRT: a comma by the format, a full stop as some writers have it; fraction optional.
    static let srt = ClockTime(fractionSeparators: [UInt8(ascii: ","), UInt8(ascii: ".")], fractionDigits: 0...3)
    /// HTML `<time>`: the namespace's example writes `0:09`.
    static let html = ClockTime(fractionSeparators: [UInt8(ascii: ".")], fractionDigits: 0...3)

    /// The seconds `text` says, or nil when it is not such a time.
    func seconds(_ text: some StringProtocol) -> Double? {
        let parts = text.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        let last = parts[parts.count - 1]
        let secondsEnd = last.firstIndex { fractionSeparators.contains($0) } ?? last.endIndex
        let fraction = last[secondsEnd...].dropFirst()
        guard let hours = parts.count == 3 ? Self.number(parts[0], digits: 1...9) : 0,
            let minutes = Self.number(parts[parts.count - 2], digits: 1...2), minutes < 60,
            let seconds = Self.number(last[..<secondsEnd], digits: 2...2), seconds < 60
        else { return nil }
        var fractionValue = 0.0
        if secondsEnd != last.endIndex || fractionDigits.lowerBound > 0 {
            guard fractionDigits.contains(fraction.count), !fraction.isEmpty,
                let numerator = Self.number(fraction, digits: 1...3)
            else { return nil }
            fractionValue = Double(numerator) / [1.0, 10, 100, 1000][fraction.count]
        }
        return Double(hours * 3600 + minutes * 60 + seconds) + fractionValue
    }

    private static func number(_ digits: some Collection<UInt8>, digits allowed: ClosedRange<Int>) -> Int? {
        guard allowed.contains(digits.count) else { return nil }
        var value = 0
        for byte in digits {
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension ClockTime {
    /// The start and end of a cue's timing line, `start --> end`, and whatever settings follow
    /// the end after white space (WebVTT's `align:start`, SRT's `X1:40`), ignored.
    /// - Throws: naming the line (`number`) and the time that is not one, as `pattern` writes them.
    func cueTimes(
        _ line: Substring, number: Int, format: TranscriptFormat, pattern: String
    ) throws(TranscriptProblem) -> (start: Double, end: Double) {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        let arrow = TranscriptBytes.arrow(in: line)!
        let startText = line[..<arrow].trimmingWhitespace()
        let endText = String(line[line.utf8.index(arrow, offsetBy: 3)...].drop(while: isBlank).prefix { !isBlank($0) })
        guard let start = seconds(startText) else {
            throw TranscriptProblem(format, "line \(number): \(CueText.quoted(startText)) is not a time (\(pattern))")
        }
        guard let end = seconds(endText) else {
            throw TranscriptProblem(format, "line \(number): \(CueText.quoted(endText)) is not a time (\(pattern))")
        }
        return (start, end)
    }
}
