/// Where the sync server's password comes from: `PODCLI_GPODDER_PASSWORD` in the environment,
/// else the first line `gpodder-password-command` prints (`SecretCommand`). The password is held
/// in memory only: never in the configuration, an argument list or a message.
public enum PasswordSource {
    /// The environment variable that overrides the command (for a test, or a one-off run).
    public static let environmentVariable = "PODCLI_GPODDER_PASSWORD"

    /// The password, from `environment` or by running `command`.
    /// - Throws: `PodcliError.noPassword` when neither gives one; `.secretCommand` when the
    ///   command fails, prints nothing, or runs past `timeLimit` seconds.
    public static func password(
        command: String?, environment: [String: String], timeLimit: Double = SecretCommand.defaultTimeLimit
    ) throws(PodcliError) -> String {
        if let password = environment[environmentVariable], !password.isEmpty { return password }
        guard let command else { throw .noPassword }
        return try SecretCommand.firstLine(
            of: command, setting: Setting.gpodderPasswordCommand.rawValue, timeLimit: timeLimit)
    }
}
