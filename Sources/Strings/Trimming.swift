/// Trimming by Unicode scalars, as Foundation's `trimmingCharacters(in:)` does, for the modules that
/// import only FoundationEssentials (which lacks it and `CharacterSet`).
extension StringProtocol {
    /// Without leading and trailing scalars of Foundation's `CharacterSet.whitespaces`: Unicode's
    /// space separators (Zs), tab, and U+200B ZERO WIDTH SPACE.
    public func trimmingWhitespace() -> String {
        trimming(where: Self.isWhitespace)
    }

    /// Without leading and trailing scalars of Foundation's `CharacterSet.whitespacesAndNewlines`:
    /// the whitespace above plus U+000A–U+000D, U+0085, U+2028 and U+2029.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming { Self.isWhitespace($0) || Self.isNewline($0) }
    }

    /// Without the leading and trailing scalars `isTrimmed` accepts. Scalars, not characters: a
    /// combining mark after a trimmed space keeps the space, as in Foundation.
    public func trimming(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(self[first..<scalars.index(after: last)])
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }

    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        ("\n"..."\r").contains(scalar) || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
