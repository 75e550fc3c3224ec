/// What an option's value or a positional may be: from it come the parse-time check (fixed
/// choices), the help line and the shells' completions.
public enum ValueDomain: Sendable, Hashable {
    /// Anything; nothing to complete.
    case any
    /// One of these words, checked while parsing. Plain words (letters, digits, `-`, `_`, `.`): the
    /// scripts hand them to the shells as word lists.
    case choices([String])
    /// A file whose name ends in one of these extensions (without the dot); none: any file.
    case file(extensions: [String])
    case directory
    /// Values only the program knows, listed by its hidden `__complete KIND` command.
    case dynamic(CompletionKind)

    /// Throws for a value outside fixed choices; `argument` is the option or positional as shown.
    func check(_ value: String, for argument: String) throws(UsageError) {
        guard case .choices(let choices) = self, !choices.contains(value) else { return }
        throw .invalidChoice(
            argument: argument, value: value, choices: choices,
            suggestion: Suggestion.closest(to: value, among: choices))
    }

    /// The note help shows for fixed choices: `(one of: private, open)`.
    var helpNote: String? {
        guard case .choices(let choices) = self else { return nil }
        return "(one of: \(choices.joined(separator: ", ")))"
    }
}

/// A kind of value a program completes from its own data (`podcli __complete episode 1`). The
/// scripts pass the positionals typed before the word completed after the prefix, for kinds
/// whose values depend on them (`podcli __complete setting-value m skip-silence`).
public enum CompletionKind: String, Sendable, CaseIterable {
    case feed, episode, setting
    /// An ALSA playback device.
    case device
    /// A value of the setting named by the first positional typed before.
    case settingValue = "setting-value"
}

extension Option {
    /// What help and the man page add after the help text, kept whole: `(default: 20)`,
    /// `(one of: private, open)`.
    var notes: [String] { [defaultValue.map { "(default: \($0))" }, domain.helpNote].compactMap { $0 } }
}

extension Positional {
    /// What help and the man page add after the help text: `(one of: bash, zsh, fish)`.
    var notes: [String] { [domain.helpNote].compactMap { $0 } }
}
