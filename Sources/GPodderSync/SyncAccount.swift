import Downloads

/// Which API a sync server speaks (the setting `gpodder-api`).
public enum SyncDialect: String, Sendable, CaseIterable {
    /// gpodder.net's API 2 (mygpo), as gpodder.net, opodsync and gpodder-fastapi-router serve it.
    case gpodder
    /// The Nextcloud gPodder Sync app's endpoints under `/index.php/apps/gpoddersync/`.
    case nextcloud
}

/// Who speaks to which server, as which device. The password is only inside `credentials`, whose
/// descriptions mask it.
public struct SyncAccount: Sendable {
    /// The server's base URL, e.g. `https://gpodder.net` or `https://cloud.example/`.
    public var server: String
    public var credentials: BasicCredentials
    /// This device's id on the server (`[\w.-]+`, checked by the caller).
    public var device: String
    public var dialect: SyncDialect

    public init(server: String, credentials: BasicCredentials, device: String, dialect: SyncDialect) {
        self.server = server
        self.credentials = credentials
        self.device = device
        self.dialect = dialect
    }
}
