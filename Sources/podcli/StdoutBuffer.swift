import PodcliKit
import Strings

/// Result lines gathered into writes of about 64 KiB: a listing of a million lines is some two
/// thousand writes, not a million. What was gathered is written when the buffer fills, when
/// `flush` is called, and never later than the end of the command (`flush` in the caller's
/// `defer`). A closed stdout ends the command as `Output` says.
struct StdoutBuffer {
    let output: Output
    /// Written under --quiet too (JSON), as `Output.print(_:always:)`.
    let always: Bool
    private var text = ""
    private static let capacity = 64 * 1024

    init(output: Output, always: Bool = false) {
        self.output = output
        self.always = always
    }

    /// A result line, made printable as `Output.print` makes it.
    mutating func print(_ line: String) {
        write(PrintableText.line(line) + "\n")
    }

    /// A part of a JSON document, escaped as `Output.json` escapes it.
    mutating func json(_ part: String) {
        write(PrintableText.json(part))
    }

    private mutating func write(_ part: String) {
        guard always || !output.quiet else { return }
        text += part
        if text.utf8.count >= Self.capacity { flush() }
    }

    mutating func flush() {
        guard !text.isEmpty else { return }
        output.stdout(text)
        text = ""
    }
}
