/// Parses a command line against a tree of `CommandSpec`s; help comes from the same tree.
///
/// - Global options and flags are accepted before or after any command name, at any depth.
/// - `-h`/`--help` anywhere before `--` gives help for the deepest command named on the
///   line, even if something else on it is wrong (`podcli fetch --jsno --help`).
///   `--version` is accepted anywhere and gives `"<root name> <version>"`. Both are
///   reserved: a declared `-h` or `--version` is never reached.
/// - A root with subcommands gets a `help` subcommand: `podcli help queue add` is
///   `podcli queue add --help`.
/// - Errors are thrown as `UsageFailure`, for the command whose parsing failed. A group
///   given no subcommand fails with `.missingCommand`, and so does the bare root unless
///   `rootRunsBare`: then it is an invocation of the root itself (`podcli` alone prints a summary).
public struct ArgumentParser: Sendable {
    /// The root named alone is run rather than refused.
    private let rootRunsBare: Bool
    static let helpTopic = Positional(
        "subcommand", help: "The subcommand to show help for.", isOptional: true, isRepeating: true)
    private static let helpCommand = CommandSpec(
        name: "help", abstract: "Show subcommand help information.", positionals: [helpTopic])

    /// The root as given, plus the `help` subcommand if one was added.
    public let root: CommandSpec
    public let globalOptions: [Option]
    public let globalFlags: [Flag]
    /// The version alone, e.g. `0.1.0`.
    public let version: String
    private let hasHelpCommand: Bool
    private let renderer: HelpRenderer

    public init(
        root: CommandSpec, globalOptions: [Option] = [], globalFlags: [Flag] = [], version: String,
        rootRunsBare: Bool = false
    ) {
        self.rootRunsBare = rootRunsBare
        // A command of the root's own named `help` takes precedence over the automatic one.
        let names = root.subcommands.map(\.name)
        hasHelpCommand = !names.isEmpty && !names.contains(Self.helpCommand.name)
        self.root =
            hasHelpCommand ? root.with(subcommands: root.subcommands + [Self.helpCommand]) : root
        self.globalOptions = globalOptions
        self.globalFlags = globalFlags
        self.version = version
        renderer = HelpRenderer(globalOptions: globalOptions, globalFlags: globalFlags)
    }

    /// Parses `arguments` (without argv[0]) into a command to run, or help or version text.
    public func parse(_ arguments: [String]) throws(UsageFailure) -> ParseOutcome {
        var scanner = ArgumentScanner(
            root: root, globalOptions: globalOptions, globalFlags: globalFlags)
        var scanError: UsageError?
        do throws(UsageError) {
            try scanner.scan(arguments)
        } catch {
            scanError = error
        }
        // Asking for help or the version beats a mistake elsewhere on the line, and help
        // goes to the deepest command named anywhere (`podcli --help fetch` is fetch's).
        let requests = arguments.prefix { $0 != "--" }
        if requests.contains(where: { $0 == "-h" || $0 == "--help" }) {
            return .help(help(for: scanner.path))
        }
        if requests.contains("--version") { return .version("\(root.name) \(version)") }
        if let scanError {
            guard scanError == .missingCommand, rootRunsBare, scanner.path.count == 1 else {
                throw failure(scanError, at: scanner.path)
            }
        }

        let path = scanner.path
        if hasHelpCommand, path.count == 2, path[1].name == Self.helpCommand.name {
            return .help(try helpTopic(scanner.arguments.values(Self.helpTopic)))
        }
        return .run(
            Invocation(
                commandPath: path.map(\.name), command: path[path.count - 1],
                arguments: scanner.arguments))
    }

    /// The same three-line failure `parse` throws, for an error a command finds itself
    /// (its own validation, or `ParsedArguments.value(_:as:_:)`).
    public func usageFailure(_ error: UsageError, for invocation: Invocation) -> UsageFailure {
        UsageFailure(
            error: error, commandPath: invocation.commandPath,
            usage: renderer.usage(of: invocation.command, at: invocation.commandPath))
    }

    /// Help for `podcli help <names...>`: walks the names from the root.
    private func helpTopic(_ names: [String]) throws(UsageFailure) -> String {
        var path = [root]
        for name in names {
            let subcommands = path[path.count - 1].subcommands
            guard let subcommand = subcommands.first(where: { $0.name == name }) else {
                let suggestion = Suggestion.closest(to: name, among: subcommands.filter { !$0.isHidden }.map(\.name))
                let error: UsageError =
                    subcommands.isEmpty
                    ? .unexpectedArgument(name) : .unknownCommand(name, suggestion: suggestion)
                throw failure(error, at: path)
            }
            path.append(subcommand)
        }
        return help(for: path)
    }

    private func help(for path: [CommandSpec]) -> String {
        renderer.help(of: path[path.count - 1], at: path.map(\.name))
    }

    private func failure(_ error: UsageError, at path: [CommandSpec]) -> UsageFailure {
        let names = path.map(\.name)
        return UsageFailure(
            error: error, commandPath: names, usage: renderer.usage(of: path[path.count - 1], at: names))
    }
}
