/// A `UsageError` together with the command it happened in: everything needed to tell the user.
///
/// A `UsageError` alone does not know its command, so `ArgumentParser.parse(_:)` throws this
/// instead, for the deepest command reached when parsing failed. Errors a command finds itself
/// (e.g. in its own validation, or from `ParsedArguments.value(_:as:_:)`) become the same
/// shape through `ArgumentParser.usageFailure(_:for:)`. `main` prints `message` to stderr
/// and exits with `UsageFailure.exitCode`:
///
///     podcli: unknown option '--jsno' (did you mean '--json'?)
///     Usage: podcli list [<options>]
///     See 'podcli list --help' for more information.
public struct UsageFailure: Error, Equatable, Sendable {
    /// `EX_USAGE` from sysexits.h.
    public static let exitCode: Int32 = 64

    public let error: UsageError
    /// The failing command's path from the root, e.g. `["podcli", "list"]`.
    public let commandPath: [String]
    /// The usage line without its `Usage: ` prefix, e.g. `podcli list [<options>]`.
    public let usage: String

    public init(error: UsageError, commandPath: [String], usage: String) {
        self.error = error
        self.commandPath = commandPath
        self.usage = usage
    }

    /// The three lines for stderr, without a trailing newline.
    public var message: String {
        """
        \(commandPath.first ?? "podcli"): \(error)
        Usage: \(usage)
        See '\(commandPath.joined(separator: " ")) --help' for more information.
        """
    }
}
