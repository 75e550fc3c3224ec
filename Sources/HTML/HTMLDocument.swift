import Strings

/// One thing an HTML document is made of, in document order, as a browser would nest it: every
/// start has its end (libxml2 closes what the document leaves open), and an end without a start
/// is not reported. A document nesting more than 256 elements is read up to there. Neither are `html`, `head` and `body`, which libxml2 implies anyway.
public enum HTMLEvent: Equatable, Sendable {
    /// A start tag: its name lowercased, and its attributes.
    case start(name: String, attributes: [HTMLAttribute])
    case end(name: String)
    /// Text, character references decoded. The contents of `<script>` and `<style>`, comments,
    /// doctypes and processing instructions are not text and never reported.
    case text(String)
}

public struct HTMLAttribute: Equatable, Sendable {
    /// Lowercased.
    public let name: String
    /// Character references decoded, surrounding whitespace trimmed; nil for an attribute written
    /// without a value (`<input disabled>`).
    public let value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}

extension [HTMLAttribute] {
    /// The value of the first attribute called `name` (lowercase).
    public func value(of name: String) -> String? {
        first { $0.name == name }?.value
    }
}

/// Reads an HTML document (show notes, an HTML transcript) into `HTMLEvent`s with libxml2's HTML
/// parser, which never fetches anything.
///
/// Where podcli's rules differ from libxml2 2.9's, `HTMLSource` prepares the text first: character
/// references follow the HTML standard (`HTMLEntity`: `&#146;` is `’`, `&AMP;` and `&copy` without
/// its semicolon are read), a `<` that no `>` closes is text, a CDATA section is text, and text
/// outside any element gets no `<p>` its author did not write.
/// libxml2 reads the rest: implied and misnested end tags, quoted attributes, comments, and
/// `<script>`/`<style>` contents that end only at their own end tag.
public enum HTMLDocument {
    /// The events of `html`; if libxml2 cannot make a parser (out of memory), the text as it is.
    public static func events(_ html: String) -> [HTMLEvent] {
        HTMLParser.events(HTMLSource.prepared(html)) ?? [.text(html)]
    }

    /// `bytes` with every character reference decoded (`HTMLEntity`), as a String.
    static func decodingReferences(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), let (scalar, end) = HTMLEntity.decode(bytes, at: index) {
                decoded.append(contentsOf: UTF8.encode(scalar)!)
                index = end
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
