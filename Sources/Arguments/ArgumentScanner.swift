/// One pass over a command line: descends into subcommands by name and collects options,
/// flags and positionals for the command it ends in.
///
/// `path` stays readable after a throw, so the caller can report the error for the
/// deepest command reached.
struct ArgumentScanner {
    let globalOptions: [Option]
    let globalFlags: [Flag]
    /// The commands named so far, root first.
    private(set) var path: [CommandSpec]
    private(set) var arguments = ParsedArguments()
    /// Words meant for the final command's positionals, in order.
    private var words: [String] = []

    init(root: CommandSpec, globalOptions: [Option], globalFlags: [Flag]) {
        self.path = [root]
        self.globalOptions = globalOptions
        self.globalFlags = globalFlags
    }

    private var command: CommandSpec { path[path.count - 1] }
    // A command's own declarations come first, so they win over a global of the same name.
    private var options: [Option] { command.options + globalOptions }
    private var flags: [Flag] { command.flags + globalFlags }

    /// Scans `tokens` (without argv[0]). `-h`, `--help` and `--version` are skipped here:
    /// the parser looks for them itself, since they win over errors.
    mutating func scan(_ tokens: [String]) throws(UsageError) {
        var remaining = tokens[...]
        var optionsEnded = false
        while let token = remaining.popFirst() {
            if optionsEnded || !isOptionLike(token) {
                try take(word: token)
                continue
            }
            switch token {
            case "--": optionsEnded = true
            case "-h", "--help", "--version": continue
            default: try take(option: token, from: &remaining)
            }
        }
        try assignPositionals()
    }

    /// Whether `token` is meant as an option. `-15` is a number, not an option, unless
    /// the command declares a short `-1`; a lone `-` is a word (stdin, by convention).
    private func isOptionLike(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        let second = token[token.index(after: token.startIndex)]
        guard ("0"..."9").contains(second) else { return true }
        return options.contains { $0.short == second } || flags.contains { $0.short == second }
    }

    private mutating func take(
        option token: String, from remaining: inout ArraySlice<String>
    ) throws(UsageError) {
        // `--name=value` carries its value inline.
        let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let inlineValue = parts.count > 1 ? String(parts[1]) : nil
        if let option = options.first(where: { Self.matches(name, $0.name, $0.short) }) {
            // The next token is the value even if it starts with `-`, so `--seek -15` works.
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw .missingValue(forOption: name)
            }
            try option.domain.check(value, for: option.displayName)
            arguments.append(value, for: option)
        } else if let flag = flags.first(where: { Self.matches(name, $0.name, $0.short) }) {
            guard inlineValue == nil else { throw .unexpectedValue(forFlag: name) }
            arguments.set(flag)
        } else {
            throw .unknownOption(name, suggestion: suggestion(for: name))
        }
    }

    private static func matches(_ typed: String, _ long: String, _ short: Character?) -> Bool {
        typed == "--" + long || short.map { typed == "-" + String($0) } == true
    }

    /// The nearest long option, also for a single-dash slip like `-json`.
    private func suggestion(for typed: String) -> String? {
        let names = options.map(\.name) + flags.map(\.name) + ["help", "version"]
        let bare = String(typed.drop { $0 == "-" })
        return Suggestion.closest(to: bare, among: names).map { "--" + $0 }
    }

    /// A word names a subcommand while the current command is a group, else it is a positional;
    /// a group with positionals of its own takes a first word that names none of its
    /// subcommands as its first positional (`bookmarks 12` beside `bookmarks rm 3`).
    private mutating func take(word: String) throws(UsageError) {
        let subcommands = command.subcommands
        guard !subcommands.isEmpty, words.isEmpty else { return words.append(word) }
        guard let subcommand = subcommands.first(where: { $0.name == word }) else {
            if !command.positionals.isEmpty { return words.append(word) }
            let suggestion = Suggestion.closest(to: word, among: subcommands.filter { !$0.isHidden }.map(\.name))
            throw .unknownCommand(word, suggestion: suggestion)
        }
        path.append(subcommand)
    }

    /// Hands the collected words to the command's positionals, in declaration order.
    private mutating func assignPositionals() throws(UsageError) {
        guard command.subcommands.isEmpty || !command.positionals.isEmpty else { throw .missingCommand }
        var remaining = words[...]
        for positional in command.positionals {
            let taken = positional.isRepeating ? Array(remaining) : Array(remaining.prefix(1))
            remaining = remaining.dropFirst(taken.count)
            if taken.isEmpty && !positional.isOptional {
                throw .missingArgument(positional.displayName)
            }
            for value in taken { try positional.domain.check(value, for: positional.displayName) }
            arguments.set(taken, for: positional)
        }
        if let extra = remaining.first { throw .unexpectedArgument(extra) }
    }
}
