import EpisodeStore
import Feeds

#if canImport(Glibc)
    import Glibc
#endif

/// What can go wrong in podcli's application layer itself, beyond the modules' own errors
/// (`StoreError`, `DownloadError`, `FeedError`, ...), worded so a user can act on it. The
/// executable maps each case to an exit code; nothing here knows the command line.
public enum PodcliError: Error, Sendable, CustomStringConvertible {
    // MARK: The configuration and the data directory

    /// A mistake in the configuration file, at `location` (`file:line`).
    case config(location: String, problem: String)
    /// The configuration file could not be written.
    case configNotWritten(path: String, errno: Int32)
    /// A setting that exists for every feed only was given for one.
    case notPerFeed(setting: String)
    /// No setting by that name.
    case unknownSetting(String)
    /// A value a setting cannot take.
    case invalidSetting(setting: String, value: String, expected: String)
    /// Neither `--home`, `PODCLI_HOME` nor `HOME` says where the data goes.
    case noHome
    /// A `*-secret-command` setting's command gave no secret (never says what it printed).
    case secretCommand(setting: String, problem: String)

    // MARK: Directories

    /// `fetch --result N` with no search kept.
    case noSearch
    /// `fetch --result N` past the last search's results.
    case noSuchResult(Int, count: Int, term: String)
    /// The last search's results could not be kept.
    case searchNotKept(path: String, errno: Int32)

    // MARK: Feeds

    /// The feed URL serves audio: an episode, not a feed.
    case servesAudio(url: String)
    /// The body is an HTML page where a feed or audio was expected.
    case htmlPage(url: String)
    /// The body could not be read as a feed.
    case unreadableFeed(url: String, FeedError)

    // MARK: Sync

    /// Another sync holds the data directory's lock.
    case syncRunning(pid: Int?)
    /// The sync lock could not be opened or taken.
    case syncLock(path: String, errno: Int32)
    /// Downloads the disk stopped (full, or below `min-free`).
    case outOfSpace(reason: String)
    /// `sync.lock` or `sync.log` is not podcli's to write: a link (perhaps planted by another
    /// user), not a regular file, or another user's.
    case notOwnFile(path: String, reason: String)

    // MARK: The sync server

    /// `gpodder-server` is set without `setting` (gpodder-user), which the exchange needs.
    case remoteIncomplete(missing: String)
    /// Neither `PODCLI_GPODDER_PASSWORD` nor `gpodder-password-command` gives a password.
    case noPassword
    /// The server refused `user` and the password (401, 403).
    case remoteRefused(server: String, user: String)

    // MARK: Playing

    /// The queue is empty and no episode was named.
    case emptyQueue
    /// `--from` is at or past the end of the episode.
    case startPastTheEnd(episode: Int, start: String, length: String)
    /// Some episodes of a queue could not be played; `first` is the first one's error.
    case unplayable(count: Int, first: any Error & Sendable)
    /// A background player could not be started.
    case playerNotStarted(reason: String)
    /// A background player stopped before it played: its last words, and its exit status.
    case playerStopped(words: String, status: Int32)
    /// A background player did not answer in time; its log says more.
    case playerNotAnswering(log: String)
    /// Where an episode was left (`position`, as the clock shows it) could not be saved.
    case positionNotSaved(episode: Int, title: String, position: String, reason: StoreError)

    public var description: String {
        switch self {
        case .config(let location, let problem): return "\(location): \(problem)"
        case .configNotWritten(let path, let code): return "could not write \(path): \(String(cString: strerror(code)))"
        case .notPerFeed(let setting): return "\(setting) is a setting for every feed, not one feed"
        case .unknownSetting(let name): return "unknown setting '\(name)' ('podcli config list' shows them all)"
        case .invalidSetting(let setting, let value, let expected):
            return "\(setting) must be \(expected), not '\(value)'"
        case .noHome: return "HOME is not set: give --home DIR or set PODCLI_HOME"
        case .secretCommand(let setting, let problem): return "\(setting) gave no secret: \(problem)"
        case .noSearch: return "no search to take a result of: 'podcli search WORDS' first"
        case .noSuchResult(let number, let count, let term):
            return "the search for '\(term)' found \(Formatting.count(count, "podcast")), not \(number)"
        case .searchNotKept(let path, let code):
            return "could not keep the results in \(path): \(String(cString: strerror(code)))"
        case .servesAudio(let url):
            return "\(url) serves audio, not a feed ('podcli fetch' downloads it as an episode)"
        case .htmlPage(let url):
            return "\(url) is not a feed or audio (the server sent an HTML page, perhaps a captive portal or login "
                + "page); nothing was kept"
        case .unreadableFeed(let url, let error): return "\(url): \(error)"
        case .syncRunning(let pid):
            return "another podcli sync is running\(pid.map { " (pid \($0))" } ?? ""); --wait waits for it"
        case .syncLock(let path, let code): return "could not lock \(path): \(String(cString: strerror(code)))"
        case .outOfSpace(let reason): return reason
        case .notOwnFile(let path, let reason): return "cannot use \(path): \(reason); remove it (podcli makes it anew)"
        case .remoteIncomplete(let missing):
            return "gpodder-server is set but \(missing) is not ('podcli config set \(missing) VALUE')"
        case .noPassword:
            return "gpodder-server is set but no password is: set gpodder-password-command (a command printing it) "
                + "or PODCLI_GPODDER_PASSWORD"
        case .remoteRefused(let server, let user):
            return "\(server) refused the user '\(user)' or its password: check gpodder-user and "
                + "gpodder-password-command (or PODCLI_GPODDER_PASSWORD)"
        case .emptyQueue:
            return "the queue is empty: play an episode with 'podcli play ID', or queue some with 'podcli queue add ID'"
        case .startPastTheEnd(let episode, let start, let length):
            return "--from \(start) is past the end of #\(episode) (\(length))"
        case .unplayable(let count, _): return Formatting.count(count, "episode") + " could not be played (see above)"
        case .playerNotStarted(let reason): return "cannot start a player: \(reason)"
        case .playerStopped(let words, _): return words
        case .playerNotAnswering(let log): return "the player did not answer within 5 s (see \(log))"
        case .positionNotSaved(let episode, let title, let position, let reason):
            return "the position of #\(episode) \(title) (\(position)) could not be saved: \(reason)"
        }
    }
}
