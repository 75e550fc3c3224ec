import PodcliKit

/// Left-aligned columns separated by two spaces; the last column is not padded.
struct Table {
    let header: [String]
    let rows: [[String]]

    var lines: [String] {
        let widths = Self.widths(of: [header] + rows)
        return ([header] + rows).map { Self.line($0, widths: widths) }
    }

    /// The widest cell of each column of `rows`, in characters.
    static func widths(of rows: [[String]]) -> [Int] {
        (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
    }

    /// One row, each cell but the last padded to its column's width (a wider cell is never cut:
    /// it pushes the rest of its line right).
    static func line(_ row: [String], widths: [Int]) -> String {
        row.enumerated().map { column, cell in
            column == row.count - 1 ? cell : Formatting.padded(cell, to: widths[column])
        }.joined(separator: "  ")
    }
}
