/// Renders `--help` text and usage lines for a command.
///
/// The layout is fixed: OVERVIEW, discussion, USAGE, ARGUMENTS, OPTIONS (the command's own,
/// then the global ones), EXAMPLES, SUBCOMMANDS. Labels sit in a 26-column gutter; help text wraps
/// at 80 columns under its own column.
struct HelpRenderer {
    /// One line of a section before layout: `--name <value>`, what it does, and notes kept whole
    /// (`(default: 20)`, `(one of: private, open)`).
    private typealias Row = (label: String, help: String, notes: [String])

    private static let width = 80
    private static let helpColumn = 26
    private static let indent = "  "

    let globalOptions: [Option]
    let globalFlags: [Flag]

    /// The usage line without `USAGE: `, e.g. `podcli fetch [<options>] <url>`.
    func usage(of command: CommandSpec, at path: [String]) -> String {
        var parts = [path.joined(separator: " ")]
        if !command.subcommands.isEmpty && command.positionals.isEmpty { return parts[0] + " <subcommand>" }
        let hasOptions =
            !(command.options.isEmpty && command.flags.isEmpty)
            || !(globalOptions.isEmpty && globalFlags.isEmpty)
        if hasOptions { parts.append("[<options>]") }
        for positional in command.positionals {
            let text = Self.label(positional)
            parts.append(positional.isOptional ? "[\(text)]" : text)
        }
        return parts.joined(separator: " ")
    }

    /// The full help text, without a trailing newline. `path` is the command's path from the
    /// root; only the root lists `--version`.
    func help(of command: CommandSpec, at path: [String]) -> String {
        var sections = [Self.wrap("OVERVIEW: " + command.abstract, width: Self.width)]
        if !command.discussion.isEmpty { sections.append(Self.discussion(command.discussion)) }
        sections.append(["USAGE: " + usage(of: command, at: path)])
        if !command.positionals.isEmpty {
            let rows: [Row] = command.positionals.map { (Self.label($0), $0.help, $0.notes) }
            sections.append(Self.section("ARGUMENTS", rows))
        }
        var rows = command.options.map(Self.row) + command.flags.map(Self.row)
        rows += globalOptions.map(Self.row) + globalFlags.map(Self.row)
        if path.count == 1 { rows.append(("--version", "Show the version.", [])) }
        rows.append(("-h, --help", "Show help information.", []))
        sections.append(Self.section("OPTIONS", rows))
        if !command.examples.isEmpty { sections.append(Self.examples(command.examples)) }
        if !command.subcommands.isEmpty {
            let groups = Self.grouped(command.subcommands)
            for (group, commands) in groups {
                let title = group?.title.uppercased() ?? (groups.count == 1 ? "SUBCOMMANDS" : "OTHER")
                sections.append(Self.section(title, commands.map { ($0.name, $0.abstract, []) }))
            }
            // The `help` subcommand lives at the root: `podcli help queue <subcommand>`.
            let helpPath = ([path[0], "help"] + path.dropFirst()).joined(separator: " ")
            sections.append(["See '\(helpPath) <subcommand>' for detailed help."])
        }
        return sections.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
    }

    /// The visible subcommands by group, in `CommandGroup` order, the ungrouped last (under nil).
    static func grouped(_ subcommands: [CommandSpec]) -> [(group: CommandGroup?, commands: [CommandSpec])] {
        let visible = subcommands.filter { !$0.isHidden }
        let groups: [CommandGroup?] = CommandGroup.allCases + [nil]
        return groups.map { group in (group, visible.filter { $0.group == group }) }.filter { !$0.commands.isEmpty }
    }

    static func label(_ positional: Positional) -> String {
        positional.displayName + (positional.isRepeating ? " ..." : "")
    }

    private static func row(_ option: Option) -> Row {
        let long = "\(option.displayName) <\(option.valueName)>"
        return (option.short.map { "-\($0), \(long)" } ?? long, option.help, option.notes)
    }

    private static func row(_ flag: Flag) -> Row {
        (flag.short.map { "-\($0), \(flag.displayName)" } ?? flag.displayName, flag.help, [])
    }

    private static func section(_ title: String, _ rows: [Row]) -> [String] {
        [title + ":"] + rows.flatMap(layout)
    }

    /// A row's lines: the label, then its help in the help column (on the next line when
    /// the label is too wide), wrapped.
    private static func layout(_ row: Row) -> [String] {
        var text = wrap(row.help, width: width - helpColumn)
        for note in row.notes {
            // A note stays whole: on the last line if it fits there, else on its own.
            if let last = text.last, last.count + 1 + note.count <= width - helpColumn {
                text[text.count - 1] += " " + note
            } else {
                text.append(note)
            }
        }
        let label = indent + row.label
        var lines = [label]
        if label.count + 2 <= helpColumn, !text.isEmpty {
            lines = [label + String(repeating: " ", count: helpColumn - label.count) + text.removeFirst()]
        }
        return lines + text.map { String(repeating: " ", count: helpColumn) + $0 }
    }

    /// Each command line as it is typed (never wrapped: it is copied), what it does under it.
    private static func examples(_ examples: [Example]) -> [String] {
        let margin = indent + indent + indent
        return ["EXAMPLES:"]
            + examples.flatMap { example in
                [indent + example.command] + wrap(example.explanation, width: width - margin.count).map { margin + $0 }
            }
    }

    /// Keeps the author's lines (blank ones separate paragraphs) and wraps only those too long,
    /// under their own text: an indented line or a list item ("- ") wraps under its first word.
    private static func discussion(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            guard line.count > width else { return [String(line)] }
            let rest = line.drop { $0 == " " }
            let indent = line.count - rest.count + (rest.hasPrefix("- ") ? 2 : 0)
            let lines = wrap(String(line.dropFirst(indent)), width: width - indent)
            let margin = String(repeating: " ", count: indent)
            return lines.enumerated().map { ($0.offset == 0 ? String(line.prefix(indent)) : margin) + $0.element }
        }
    }

    /// Greedy word wrap; a word longer than `width` gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        return line.isEmpty ? lines : lines + [line]
    }
}
