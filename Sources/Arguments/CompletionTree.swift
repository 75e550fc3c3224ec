/// A command tree flattened for the shells' completion scripts: one node per command a person
/// may type (hidden ones left out), with what may follow it. Every script walks the words typed
/// so far the same way: an option taking a value swallows the next word, a word naming a
/// subcommand (before any positional) descends, any other word is the next positional.
struct CompletionTree {
    struct Node {
        /// The command's words from the root, space-separated: `podcli queue add`.
        let path: String
        let subcommands: [(name: String, help: String)]
        /// Every spelling of every option and flag, global ones and `--help` included.
        let switches: [(word: String, help: String)]
        /// The spellings that take a value.
        let valued: [String]
        /// The command's own options' spellings whose values have a domain.
        let optionDomains: [(word: String, domain: ValueDomain)]
        let positionals: [ValueDomain]
        /// The last positional takes every remaining word.
        let lastRepeats: Bool
    }

    let commandName: String
    let nodes: [Node]
    /// The global options' spellings and domains, the same under every command.
    let globalDomains: [(word: String, domain: ValueDomain)]
    /// The global options' spellings: given on the line, they are handed on to `__complete`
    /// (`--home DIR` chooses the library whose episodes are offered).
    let globalValued: [String]

    init(root: CommandSpec, commandName: String, globalOptions: [Option], globalFlags: [Flag]) {
        self.commandName = commandName
        globalDomains = globalOptions.flatMap { option in Self.spellings(option).map { ($0, option.domain) } }
            .filter { $0.1 != .any }
        let globalValued = globalOptions.flatMap(Self.spellings)
        self.globalValued = globalValued
        var nodes: [Node] = []
        // `help COMMAND...` takes the commands' names: under it, the tree again, with only the
        // global options and no positionals.
        let globalSwitches = globalOptions.flatMap { option in Self.spellings(option).map { ($0, option.help) } }
        func visitHelp(_ command: CommandSpec, path: [String]) {
            let visible = command.subcommands.filter { !$0.isHidden }
            nodes.append(
                Node(
                    path: path.joined(separator: " "), subcommands: visible.map { ($0.name, $0.abstract) },
                    switches: globalSwitches + [
                        ("-h", "Show help information."), ("--help", "Show help information."),
                    ],
                    valued: globalValued, optionDomains: [], positionals: [],
                    lastRepeats: false))
            for subcommand in visible where !subcommand.isHelp { visitHelp(subcommand, path: path + [subcommand.name]) }
        }
        func visit(_ command: CommandSpec, path: [String]) {
            if command.isHelp { return visitHelp(root, path: path) }
            let options = command.options + globalOptions
            var switches = options.flatMap { option in Self.spellings(option).map { ($0, option.help) } }
            switches += (command.flags + globalFlags).flatMap { flag in
                (flag.short.map { ["-\($0)"] } ?? []).map { ($0, flag.help) } + [("--" + flag.name, flag.help)]
            }
            if path.count == 1 { switches.append(("--version", "Show the version.")) }
            switches += [("-h", "Show help information."), ("--help", "Show help information.")]
            let visible = command.subcommands.filter { !$0.isHidden }
            nodes.append(
                Node(
                    path: path.joined(separator: " "), subcommands: visible.map { ($0.name, $0.abstract) },
                    switches: switches, valued: options.flatMap(Self.spellings),
                    optionDomains: command.options.flatMap { option in
                        Self.spellings(option).map { ($0, option.domain) }
                    }.filter { $0.1 != .any },
                    positionals: command.positionals.map(\.domain),
                    lastRepeats: command.positionals.last?.isRepeating ?? false))
            for subcommand in visible { visit(subcommand, path: path + [subcommand.name]) }
        }
        visit(root, path: [commandName])
        self.nodes = nodes
    }

    /// The options whose values have a domain, each spelling with its command's path (nil for a
    /// global option: under any command) and its domain's words, in the order a `case` tries them.
    var optionDomainCases: [(path: String?, word: String, domain: String)] {
        nodes.flatMap { node in node.optionDomains.map { (node.path, $0.word, Self.words($0.domain)) } }
            + globalDomains.map { (nil, $0.word, Self.words($0.domain)) }
    }

    private static func spellings(_ option: Option) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--" + option.name]
    }

    /// A domain as the words a script hands its value completer: `choices private open`,
    /// `file opml xml`, `directory`, `dynamic episode`, `any`.
    static func words(_ domain: ValueDomain) -> String {
        switch domain {
        case .any: "any"
        case .choices(let choices): (["choices"] + choices).joined(separator: " ")
        case .file(let extensions): (["file"] + extensions).joined(separator: " ")
        case .directory: "directory"
        case .dynamic(let kind): "dynamic " + kind.rawValue
        }
    }

    /// The first line of a help text, for a one-line description.
    static func summary(_ help: String) -> String {
        String(help.split(separator: "\n").first ?? "")
    }

    /// A name usable in a shell function's name: `podcli` stays, `my-tool` becomes `my_tool`.
    var functionStem: String {
        String(commandName.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}

/// Quoting for the scripts' string literals.
enum ShellQuote {
    /// A POSIX-shell (bash, zsh) single-quoted word.
    static func posix(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// A fish single-quoted word (fish escapes `\` and `'` inside single quotes).
    static func fish(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}

extension CommandSpec {
    /// The `help` command `ArgumentParser` adds.
    fileprivate var isHelp: Bool { name == "help" && positionals == [ArgumentParser.helpTopic] }
}
