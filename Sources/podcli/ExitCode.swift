import DesktopNotifications
import Downloads
import EpisodeStore
import Feeds
import GPodderSync
import Playback
import PodcastDirectory
import PodcliKit
import RemoteControl

/// The exit codes scripts can rely on, in the spirit of sysexits(3). Documented in the README.
enum ExitCode: Int32, CaseIterable {
    case success = 0
    /// `verify` found files that differ from their record and were not repaired.
    case drift = 1
    /// The command line was wrong.
    case usage = 64
    /// The content is not what it should be (not audio, not a feed, a broken file).
    case badContent = 65
    /// No such episode or feed.
    case notFound = 66
    /// The network, the server (after retries) or the sound device is unavailable.
    case unavailable = 69
    /// The disk or the database failed (full disk, permissions, I/O).
    case storage = 74
    /// Another podcli holds what is needed, or the player cannot answer now (suspended, stuck);
    /// try again later.
    case busy = 75
    /// The sync server refused the user or password.
    case noPermission = 77

    /// What the code means, for the man page's EXIT STATUS.
    var meaning: String {
        switch self {
        case .success: return "Success."
        case .drift: return "verify found files that differ from their record and were not repaired."
        case .usage: return "The command line was wrong, or a setting's value is (EX_USAGE)."
        case .badContent:
            return "The content is not what it should be: not audio, not a feed, a broken file (EX_DATAERR)."
        case .notFound: return "No such episode or feed; no player running (EX_NOINPUT)."
        case .unavailable:
            return "The network, the server (after retries) or the sound device is unavailable (EX_UNAVAILABLE)."
        case .storage: return "The disk or the database failed: a full disk, permissions, I/O (EX_IOERR)."
        case .busy:
            return
                "Another podcli holds what is needed, or the player cannot answer now; try again later (EX_TEMPFAIL)."
        case .noPermission: return "The sync server refused the user or password (EX_NOPERM)."
        }
    }

    /// The code for an error a command threw.
    init(for error: Error) {
        switch error {
        case let error as DownloadError:
            switch error {
            case .imageTooLarge, .chaptersTooLarge, .transcriptTooLarge: self = .badContent
            case .invalidURL: self = .usage
            case .notAudio, .unplayable, .feedTooLarge, .tooLarge, .tooLong: self = .badContent
            case .storage, .lowDiskSpace: self = .storage
            case .redirectRefused, .tooManyRedirects, .http, .retryTooLate, .network, .unreachable, .incomplete,
                .stopped:
                self = .unavailable
            }
        case let error as StoreError:
            switch error {
            case .episodeNotFound, .ambiguousEpisode, .feedNotFound, .ambiguousFeed: self = .notFound
            case .searchTooLong: self = .usage
            case .busy: self = .busy
            case .sqlite, .noSpace, .newerSchema, .migrationFailed, .io: self = .storage
            }
        case let error as FeedError:
            switch error {
            case .empty, .notXML, .notAFeed, .truncated, .illegalCharacter, .textTooLong, .badEncoding,
                .tooManyAttributes, .unreadableEncoding, .tooSlow:
                self = .badContent
            case .unreadable: self = .storage
            }
        case let error as DecoderError:
            switch error {
            case .cannotOpen: self = .storage
            case .libraryMissing: self = .unavailable
            case .notAudio, .unplayable, .decoding, .seeking: self = .badContent
            }
        case let error as OutputError:
            switch error {
            case .busy: self = .busy
            case .noDevice, .unsupportedFormat, .deviceLost: self = .unavailable
            }
        case let error as ControlError:
            switch error {
            case .nothingPlaying: self = .notFound
            case .alreadyPlaying, .suspended, .notAnswering: self = .busy
            case .socket: self = .storage
            }
        case is NotificationError: self = .unavailable
        case let error as DirectoryError:
            switch error {
            case .exchange(_, .invalidURL): self = .usage
            case .exchange, .declined, .refused: self = .unavailable
            case .keyRefused: self = .usage
            case .htmlPage, .unreadable, .inconsistentCount, .noFeed: self = .badContent
            case .nothingFound, .unknownID: self = .notFound
            }
        case let error as SyncServerError:
            switch error {
            case .api(.unauthorized): self = .noPermission
            case .api(.replyTooLarge), .badReply: self = .badContent
            case .api: self = .unavailable
            }
        case let error as PodcliError:
            switch error {
            case .config, .notPerFeed, .unknownSetting, .invalidSetting, .noHome, .startPastTheEnd, .remoteIncomplete,
                .noPassword:
                self = .usage
            case .secretCommand: self = .unavailable
            case .noSearch, .noSuchResult: self = .notFound
            case .searchNotKept: self = .storage
            case .remoteRefused: self = .noPermission
            case .configNotWritten, .syncLock, .outOfSpace, .notOwnFile: self = .storage
            case .servesAudio, .htmlPage: self = .badContent
            case .unreadableFeed(_, let feedError): self = ExitCode(for: feedError)
            case .syncRunning: self = .busy
            case .emptyQueue: self = .notFound
            case .unplayable(_, let first): self = ExitCode(for: first)
            case .playerNotStarted: self = .storage
            case .playerStopped(_, let status): self = ExitCode(rawValue: status) ?? .storage
            case .playerNotAnswering: self = .unavailable
            case .positionNotSaved(_, _, _, let reason): self = ExitCode(for: reason)
            }
        case let failure as CommandFailure: self = failure.exitCode
        case let told as AlreadyTold: self = told.exitCode
        default: self = .storage
        }
    }
}

/// A failure whose lines the command has printed already: only its exit code is left.
struct AlreadyTold: Error {
    let exitCode: ExitCode
}

/// A failure a command reports itself, with its own message and exit code.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    let exitCode: ExitCode
}
