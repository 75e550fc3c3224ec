import Arguments
import EpisodeStore
import Foundation

/// `podcli list`: the episodes podcli knows, one line each.
enum List: Command {
    static let json = Flag("json", help: "Print the episodes as a JSON array (the fields of 'show --json').")

    static let spec = CommandSpec(name: "list", abstract: "List episodes.", flags: [json])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let reports = try library.episodes().map { try EpisodeReport($0, in: library) }
        if arguments[json] {
            context.output.print(try EpisodeReport.json(reports), always: true)
            return
        }
        guard !reports.isEmpty else {
            context.output.note("No episodes yet: 'podcli fetch URL' downloads one.")
            return
        }
        let rows = reports.map { report in
            ["\(report.id)", report.state, report.size.map(Formatting.bytes) ?? "-", report.title]
        }
        for line in Table(header: ["ID", "STATE", "SIZE", "TITLE"], rows: rows).lines {
            context.output.print(line)
        }
    }
}

/// Left-aligned columns separated by two spaces; the last column is not padded.
struct Table {
    let header: [String]
    let rows: [[String]]

    var lines: [String] {
        let all = [header] + rows
        let widths = (0..<header.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
