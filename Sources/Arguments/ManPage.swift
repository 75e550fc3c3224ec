/// A piece of a man page section, given as plain text: the renderer escapes it for roff.
public enum ManBlock: Sendable, Hashable {
    /// Text filled into a paragraph.
    case paragraph(String)
    /// A tagged paragraph: `label` on its line, `text` indented under it.
    case item(label: String, text: String)
    /// Lines kept as written and indented: a command line, a file's contents.
    case literal(String)
}

/// A section the program hands in (CONFIGURATION, FILES, ENVIRONMENT...): what the specs
/// cannot know.
public struct ManSection: Sendable, Hashable {
    public let title: String
    public let blocks: [ManBlock]

    public init(_ title: String, _ blocks: [ManBlock]) {
        self.title = title
        self.blocks = blocks
    }
}

/// Renders a section 1 man page (man(7) roff) from the parser's command specs: NAME, SYNOPSIS,
/// DESCRIPTION, OPTIONS (the global ones), COMMANDS by group with their options, the sections
/// handed in, then EXAMPLES (the commands' own, then the ones handed in).
///
/// Output passes `groff -man -ww` and `mandoc -Tlint` without a message: text is escaped
/// (backslashes, dashes, non-ASCII as `\[uXXXX]`, a leading dot or quote), filled lines stay
/// under 80 bytes, and no paragraph macro follows a heading.
public enum ManPage {
    public static func render(
        _ parser: ArgumentParser, date: String, sections: [ManSection] = [], examples: [ManBlock] = []
    ) -> String {
        let root = parser.root
        let name = root.name
        var page = Page()
        page.control(".TH \(name.uppercased()) 1 \"\(date)\" \(quoted("\(name) \(parser.version)")) \"User Commands\"")
        page.heading("NAME")
        page.text("\(name) - \(root.abstract)")
        page.heading("SYNOPSIS")
        page.raw("\\fB\(escape(name))\\fR [\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]")
        page.heading("DESCRIPTION")
        page.block(.paragraph(root.abstract))
        for part in parts(root.discussion) { page.part(part, indented: false) }

        page.heading("OPTIONS")
        let renderer = HelpRenderer(globalOptions: parser.globalOptions, globalFlags: parser.globalFlags)
        for item in parser.globalOptions.map(item) + parser.globalFlags.map(item) { page.block(item) }
        page.block(.item(label: "--version", text: "Show the version."))
        page.block(.item(label: "-h, --help", text: "Show help information."))

        page.heading("COMMANDS")
        page.block(.paragraph("Every command takes the options above; '\(name) help COMMAND' shows a command's help."))
        for (group, commands) in HelpRenderer.grouped(root.subcommands) {
            page.subheading(group?.title ?? "Other")
            for command in commands { page.command(command, at: [name], renderer: renderer) }
        }

        for section in sections {
            page.heading(section.title)
            for block in section.blocks { page.block(block) }
        }

        let commandExamples = root.subcommands.flatMap(allExamples)
        if !(commandExamples.isEmpty && examples.isEmpty) {
            page.heading("EXAMPLES")
            for example in commandExamples {
                page.block(.paragraph(example.explanation))
                page.block(.literal(example.command))
            }
            for block in examples { page.block(block) }
        }
        return page.lines.joined(separator: "\n") + "\n"
    }

    private static func allExamples(_ command: CommandSpec) -> [Example] {
        command.isHidden ? [] : command.examples + command.subcommands.flatMap(allExamples)
    }

    static func item(_ option: Option) -> ManBlock {
        let label = (option.short.map { "-\($0), " } ?? "") + "\(option.displayName) <\(option.valueName)>"
        return .item(label: label, text: ([option.help] + option.notes).joined(separator: " "))
    }

    static func item(_ flag: Flag) -> ManBlock {
        .item(label: (flag.short.map { "-\($0), " } ?? "") + flag.displayName, text: flag.help)
    }

    /// A piece of a discussion as `--help` shows it (`HelpRenderer`): text filled into a
    /// paragraph, a list item ("- "), or indented lines kept as they are (a table, commands).
    enum DiscussionPart: Equatable {
        case text(String)
        case bullet(String)
        case literal([String])
    }

    /// A discussion's parts: a blank line ends a paragraph, a "- " line is a list item, and
    /// lines indented by two spaces or more are kept as written, without the indentation.
    static func parts(_ text: String) -> [DiscussionPart] {
        var parts: [DiscussionPart] = []
        var current: DiscussionPart?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.trimmingSpaces()
            switch current {
            case _ where words.isEmpty:
                current.map { parts.append($0) }
                current = nil
            case _ where line.hasPrefix("- "):
                current.map { parts.append($0) }
                current = .bullet(String(words.dropFirst(2)))
            case .literal(let lines) where line.hasPrefix("  "):
                current = .literal(lines + [String(line.dropFirst(2))])
            case _ where line.hasPrefix("  "):
                current.map { parts.append($0) }
                current = .literal([String(line.dropFirst(2))])
            case .text(let text):
                current = .text(text + " " + words)
            default:
                current.map { parts.append($0) }
                current = .text(words)
            }
        }
        return parts + (current.map { [$0] } ?? [])
    }

    private static func quoted(_ text: String) -> String { "\"" + escape(text) + "\"" }

    /// `text` as roff input text: backslashes and dashes escaped, anything but ASCII as a
    /// `\[uXXXX]` character (groff reads bytes, not UTF-8).
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "\t": escaped += " "
            case _ where scalar.value >= 0x80:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// The page being written, line by line.
    private struct Page {
        var lines: [String] = []
        /// Just after a heading, where a paragraph macro is redundant (mandoc warns).
        private var atSectionStart = false

        mutating func control(_ line: String) {
            lines.append(line)
            atSectionStart = false
        }

        mutating func heading(_ title: String) {
            lines.append(".SH \(ManPage.quoted(title))")
            atSectionStart = true
        }

        mutating func subheading(_ title: String) {
            lines.append(".SS \(ManPage.quoted(title))")
            atSectionStart = true
        }

        /// A text line already in roff, guarded against reading as a control line.
        mutating func raw(_ line: String) {
            lines.append(line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line)
            atSectionStart = false
        }

        /// Plain text, escaped and wrapped into lines under 80 bytes.
        mutating func text(_ text: String) {
            // 72 columns stay under mandoc's 80 bytes once most text is escaped.
            for line in HelpRenderer.wrap(text, width: 72) { raw(ManPage.escape(line)) }
        }

        mutating func block(_ block: ManBlock) {
            switch block {
            case .paragraph(let text):
                if !atSectionStart { control(".PP") }
                self.text(text)
            case .item(let label, let text):
                control(".TP")
                raw("\\fB" + ManPage.escape(label) + "\\fR")
                self.text(text)
            case .literal(let text):
                control(".RS 4")
                control(".nf")
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    raw(line.isEmpty ? "\\&" : ManPage.escape(String(line)))
                }
                control(".fi")
                control(".RE")
            }
        }

        /// A part of a discussion; `indented` under a command's entry, else a paragraph of its own.
        mutating func part(_ part: ManPage.DiscussionPart, indented: Bool) {
            switch part {
            case .text(let words) where indented:
                control(".IP")
                text(words)
            case .text(let words):
                block(.paragraph(words))
            case .bullet(let words):
                // In .RS/.RE: the item's indent does not become the next paragraph's.
                control(".RS")
                control(".IP \\(bu 2")
                text(words)
                control(".RE")
            case .literal(let lines) where indented:
                // Under the entry's text, lines as written.
                control(".IP")
                control(".nf")
                for line in lines { raw(ManPage.escape(line)) }
                control(".fi")
            case .literal(let lines):
                block(.literal(lines.joined(separator: "\n")))
            }
        }

        /// A command's entry: its usage as the tag, its abstract, discussion and own options
        /// indented under it; then its subcommands' entries.
        mutating func command(_ command: CommandSpec, at parent: [String], renderer: HelpRenderer) {
            let path = parent + [command.name]
            let usage = renderer.usage(of: command, at: path)
            let rest = usage.dropFirst(path.joined(separator: " ").count)
            control(".TP")
            raw("\\fB" + ManPage.escape(path.joined(separator: " ")) + "\\fR" + ManPage.escape(String(rest)))
            text(command.abstract)
            for part in ManPage.parts(command.discussion) { self.part(part, indented: true) }
            let items =
                command.positionals.map {
                    ManBlock.item(label: HelpRenderer.label($0), text: ([$0.help] + $0.notes).joined(separator: " "))
                }
                + command.options.map(ManPage.item) + command.flags.map(ManPage.item)
            if !items.isEmpty {
                control(".RS")
                for item in items { block(item) }
                control(".RE")
            }
            for subcommand in command.subcommands where !subcommand.isHidden {
                self.command(subcommand, at: path, renderer: renderer)
            }
        }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
