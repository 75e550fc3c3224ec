import Arguments
import Downloads
import EpisodeStore
import PodcliKit

#if canImport(Glibc)
    import Glibc
#endif

/// What every command may use: output, the data directory, the configuration, the library.
/// Opened lazily, so `--help` or a usage error touches no file.
final class Context {
    let output: Output
    let environment: [String: String]
    /// The `--home` given on the command line, if any (a helper podcli starts is given it too).
    let home: String?
    private var openedLibrary: Library?

    init(arguments: ParsedArguments, environment: [String: String]) {
        self.environment = environment
        self.home = arguments[GlobalOptions.home]
        self.output = Output(quiet: arguments[GlobalOptions.quiet], stderrIsTerminal: isatty(2) == 1)
    }

    lazy var directories: Result<DataDirectory, PodcliError> = Result { () throws(PodcliError) in
        try DataDirectory(home: home, environment: environment)
    }

    /// The configuration file's settings (defaults when there is no file).
    func config() throws -> Config { try Config(path: directories.get().configFile) }

    /// The library in the data directory, created and upgraded on first use.
    func library() throws -> Library {
        if let openedLibrary { return openedLibrary }
        let library = try Library(directory: directories.get().data)
        openedLibrary = library
        return library
    }

    /// podcli's download policy (a player's, which may stay open for hours).
    let downloadPolicy = DownloadPolicy(userAgent: "podcli/\(Podcli.version)")

    /// The download policy of a command that is one run (`fetch`, `refresh`, `import`, `sync`,
    /// `verify`): a host found unreachable is not tried again by the command's later transfers.
    lazy var runPolicy: DownloadPolicy = {
        var policy = downloadPolicy
        policy.unreachableHosts = UnreachableHosts()
        return policy
    }()

    /// A downloader with podcli's policy.
    func downloader() -> Downloader { Downloader(policy: runPolicy) }

    /// The download policy, but fewer attempts: a feed is fetched again soon.
    var feedFetcherPolicy: DownloadPolicy {
        var policy = runPolicy
        policy.maxAttempts = 3
        return policy
    }

    func feedFetcher() -> FeedFetcher { FeedFetcher(policy: feedFetcherPolicy) }

    /// A client for web APIs (the podcast directories) with the run's policy.
    func apiClient() -> APIClient { APIClient(policy: runPolicy) }
}

/// Options every command accepts, before or after its name.
enum GlobalOptions {
    static let home = Option(
        "home", valueName: "dir", help: "Keep everything podcli writes (database, episodes, config) in <dir>.",
        domain: .directory)
    static let quiet = Flag("quiet", short: "q", help: "Print nothing but errors.")

    static let options = [home]
    static let flags = [quiet]
}
