/// What went wrong with a command line, kept apart from how it is said.
///
/// `description` is what follows `podcli: ` (lower case, no full stop, like podcli's other
/// error lines); `UsageFailure` adds the command's usage.
/// Option names are carried with their dashes (`--json`, `-q`), as the user would type them.
public enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownOption(String, suggestion: String?)
    case missingValue(forOption: String)
    /// A flag was given `=value`.
    case unexpectedValue(forFlag: String)
    /// The positional's display name, e.g. `<url>`.
    case missingArgument(String)
    case unexpectedArgument(String)
    case unknownCommand(String, suggestion: String?)
    case missingCommand
    case invalidValue(option: String, value: String, expected: String)
    /// A value outside an option's or positional's fixed choices (`argument`: `--protection`, `<level>`).
    case invalidChoice(argument: String, value: String, choices: [String], suggestion: String?)
    /// For commands' own validation: a free-form message, printed as is.
    case conflicting(String)

    public var description: String {
        switch self {
        case .unknownOption(let name, let suggestion):
            "unknown option '\(name)'" + Self.didYouMean(suggestion)
        case .missingValue(let option):
            "missing value for option '\(option)'"
        case .unexpectedValue(let flag):
            "the flag '\(flag)' does not take a value"
        case .missingArgument(let name):
            "missing expected argument '\(name)'"
        case .unexpectedArgument(let argument):
            "unexpected argument '\(argument)'"
        case .unknownCommand(let name, let suggestion):
            "unknown command '\(name)'" + Self.didYouMean(suggestion)
        case .missingCommand:
            "missing subcommand"
        case .invalidValue(let option, let value, let expected):
            "invalid value '\(value)' for '\(option)': expected \(expected)"
        case .invalidChoice(let argument, let value, let choices, let suggestion):
            "invalid value '\(value)' for '\(argument)': expected \(Self.alternatives(choices))"
                + Self.didYouMean(suggestion)
        case .conflicting(let message):
            message
        }
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func alternatives(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    }
}
