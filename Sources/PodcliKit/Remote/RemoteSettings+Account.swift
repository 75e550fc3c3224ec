import Downloads
import GPodderSync

extension RemoteSettings {
    /// "server user device api": the account an exchange's cursors belong to; nil with no server.
    public var accountKey: String? {
        server.map { [$0, user ?? "", deviceID, api.rawValue].joined(separator: " ") }
    }

    /// The account to exchange as, with its password from `environment` or the password command;
    /// nil when no server is set.
    /// - Throws: `PodcliError.remoteIncomplete` without a user, `PasswordSource`'s errors.
    public func account(environment: [String: String]) throws(PodcliError) -> SyncAccount? {
        guard let server else { return nil }
        guard let user else { throw .remoteIncomplete(missing: Setting.gpodderUser.rawValue) }
        let password = try PasswordSource.password(command: passwordCommand, environment: environment)
        return SyncAccount(
            server: server, credentials: BasicCredentials(user: user, password: password), device: deviceID,
            dialect: api)
    }
}
