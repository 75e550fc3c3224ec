/// Where podcli keeps its database and episodes, by the XDG base directory rules.
///
/// `--home DIR` or `PODCLI_HOME=DIR` puts everything podcli writes under DIR; otherwise data goes
/// to `$XDG_DATA_HOME/podcli` (default `~/.local/share/podcli`) and configuration comes from
/// `$XDG_CONFIG_HOME/podcli/config` (default `~/.config/podcli/config`), and logs go to
/// `$XDG_STATE_HOME/podcli` (default `~/.local/state/podcli`).
public struct DataDirectory {
    public let data: String
    public let configFile: String
    /// Where `sync` keeps its log.
    public let state: String
    /// The running player's control socket: in `$XDG_RUNTIME_DIR/podcli/` (else
    /// `$TMPDIR/podcli-UID/`, `/tmp/podcli-UID/` by default, a directory podcli makes 0700 and
    /// refuses if someone else made it first), or in the `--home` directory.
    public let controlSocket: String

    public init(home: String?, environment: [String: String]) throws(PodcliError) {
        if let home = home ?? environment["PODCLI_HOME"].flatMap({ $0.isEmpty ? nil : $0 }) {
            let absolute = DataDirectory.absolute(home, environment: environment)
            data = absolute
            configFile = absolute + "/config"
            state = absolute
            controlSocket = absolute + "/control"
            return
        }
        guard let userHome = environment["HOME"], !userHome.isEmpty else {
            throw .noHome
        }
        let dataHome = environment["XDG_DATA_HOME"].flatMap(DataDirectory.usable) ?? userHome + "/.local/share"
        let configHome = environment["XDG_CONFIG_HOME"].flatMap(DataDirectory.usable) ?? userHome + "/.config"
        data = dataHome + "/podcli"
        configFile = configHome + "/podcli/config"
        state = (environment["XDG_STATE_HOME"].flatMap(DataDirectory.usable) ?? userHome + "/.local/state") + "/podcli"
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap(DataDirectory.usable).map { $0 + "/podcli" }
        let temporary = environment["TMPDIR"].flatMap(DataDirectory.usable) ?? "/tmp"
        controlSocket = (runtime ?? "\(temporary)/podcli-\(getuid())") + "/control"
    }

    /// The XDG spec says relative paths in these variables are invalid and must be ignored.
    private static func usable(_ path: String) -> String? { path.hasPrefix("/") ? path : nil }

    private static func absolute(_ path: String, environment: [String: String]) -> String {
        if path.hasPrefix("/") { return path }
        if path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] { return home + path.dropFirst() }
        return currentDirectory() + "/" + path
    }
}

#if canImport(Glibc)
    import Glibc
#endif

private func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    return getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
}
