import HTML

/// Turns an episode's description (HTML, or plain text) into text for a terminal.
///
/// Tags go; `<p>`, headings, `<blockquote>`, `<pre>`, `<hr>`, `<table>` and the outermost list make
/// paragraphs; `<br>`, `<div>`, `<tr>` and list items make lines, each item starting "• " (indented
/// two spaces per level of nesting); `<td>` and `<th>` make a space. A link reads "text (URL)",
/// unless its text already is the URL (ignoring the scheme, a `mailto:` and a trailing slash), it has
/// no text, or it goes nowhere useful (`#…`, `javascript:`). `<script>`, `<style>` and comments are
/// dropped; character references are decoded (`HTMLEntity`). Whitespace collapses as in a browser,
/// and a no-break space counts as whitespace; there is never more than one blank line in a row, and
/// the result is trimmed. `<pre>` is not kept verbatim.
///
/// Descriptions without any block tag (plain text, or text with only links and emphasis) are
/// usually laid out with newlines, so there each newline is a line break.
///
/// The HTML is read by libxml2's HTML parser (`HTMLDocument`), so tags left open, misnested or
/// implied close as in a browser. Work is linear in the input, malformed HTML included: a `<` that
/// starts no tag is text, a tag whose quoted attribute never closes ends at the next `>`, and an
/// unclosed comment or script runs to the end, as in a browser.
public enum PlainText: Sendable {
    /// The readable text of `html`, wrapped at word boundaries to `width` Characters if given (a
    /// word longer than `width` gets a line of its own).
    public static func render(html: String, width: Int? = nil) -> String {
        let text = HTMLRenderer.render(HTMLDocument.events(html), sizeHint: html.utf8.count)
        guard let width, width > 0 else { return text }
        return LineWrapper.wrap(text, width: width)
    }
}
