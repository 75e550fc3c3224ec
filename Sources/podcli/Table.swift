import PodcliKit
import Strings

/// Left-aligned columns separated by two spaces; the last column is not padded.
struct Table {
    let header: [String]
    let rows: [[String]]

    /// The most characters a padded column takes: a longer cell is cut with "…", so one long
    /// podcast name cannot pad every row of a listing to its length.
    static let columnLimit = 40
    /// The most characters of the last column (a title and the note after it).
    static let lastColumnLimit = 200

    var lines: [String] {
        let widths = Self.widths(of: [header] + rows)
        return ([header] + rows).map { Self.line($0, widths: widths) }
    }

    /// The widest cell of each column of `rows`, in characters, up to `columnLimit`.
    static func widths(of rows: [[String]]) -> [Int] {
        (0..<(rows.first?.count ?? 0)).map { column in
            min(rows.map { $0[column].count }.max() ?? 0, columnLimit)
        }
    }

    /// One row, each cell but the last padded to its column's width (at most `columnLimit`); a
    /// cell wider than its limit is cut.
    static func line(_ row: [String], widths: [Int]) -> String {
        row.enumerated().map { column, cell in
            column == row.count - 1
                ? cut(cell, to: lastColumnLimit)
                : Formatting.padded(cut(cell, to: columnLimit), to: min(widths[column], columnLimit))
        }.joined(separator: "  ")
    }

    /// `cell` made printable, or its first characters and "…" in `limit` characters. Printable
    /// first: a URL cut in its password would no longer show where the password ends.
    private static func cut(_ cell: String, to limit: Int) -> String {
        let cell = PrintableText.line(cell)
        // The UTF-8 length bounds the count: most cells need no count at all.
        guard cell.utf8.count > limit, cell.count > limit else { return cell }
        return String(cell.prefix(limit - 1)) + "…"
    }
}
