/// Wraps `PlainText`'s lines at spaces to a width counted in Characters.
///
/// A line that starts with a bullet ("• ", perhaps indented) continues under the bullet's text.
/// Words are never split: one longer than the width has a line to itself and overflows it.
enum LineWrapper: Sendable {
    static func wrap(_ text: String, width: Int) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + text.utf8.count / max(width, 1) + 1)
        var firstLine = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !firstLine { result.append("\n") }
            firstLine = false
            wrapLine(line, width: width, into: &result)
        }
        return result
    }

    private static func wrapLine(_ line: Substring, width: Int, into result: inout String) {
        let hang = hangingIndent(of: line)
        // No room for words beside the bullet: continue at the left edge instead.
        let indent = hang < width / 2 ? hang : 0
        result.append(contentsOf: line.prefix(hang))
        var column = hang
        var lineHasWord = false
        for word in line.dropFirst(hang).split(separator: " ") {
            let length = word.count
            if lineHasWord, column + 1 + length > width {
                result.append("\n")
                result.append(String(repeating: " ", count: indent))
                column = indent
                lineHasWord = false
            }
            if lineHasWord {
                result.append(" ")
                column += 1
            }
            result.append(contentsOf: word)
            column += length
            lineHasWord = true
        }
    }

    /// The length of a leading "• " with its indentation, or 0 for a line without a bullet.
    private static func hangingIndent(of line: Substring) -> Int {
        let spaces = line.prefix(while: { $0 == " " }).count
        return line.dropFirst(spaces).hasPrefix("• ") ? spaces + 2 : 0
    }
}
