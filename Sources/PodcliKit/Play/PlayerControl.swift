import Chapters
import FoundationEssentials
import Playback
import Strings
import Synchronization
import Terminal

/// What `podcli status` reports about the running player: the now-playing info of a lock screen.
public struct NowPlayingReport: Codable, Equatable, Sendable {
    /// "playing", "paused", "interrupted (suspend)", "paused (device lost)", ...
    public var state: String
    public var id: Int
    public var title: String
    public var podcast: String?
    /// The episode's author (`itunes:author` of the item), else the podcast's.
    public var author: String?
    /// Seconds.
    public var position: Double
    public var duration: Double?
    public var volume: Int
    public var rate: Double = 1
    /// What is left of the sleep timer: seconds of listening (a number) or `"end"` (of the
    /// episode); absent when there is none.
    public var sleep: NowPlaying.Sleep?
    public var artwork: String?
    /// The chapter being heard; absent when the episode has none (or before the first).
    public var chapter: NowPlayingChapter?
}

/// The chapter `status` reports, numbered as `podcli chapters` lists it.
public struct NowPlayingChapter: Codable, Equatable, Sendable {
    public var number: Int
    public var title: String?
    /// Seconds.
    public var start: Double
    public var end: Double?

    public init(_ chapter: Chapter, number: Int) {
        self.number = number
        title = chapter.title
        start = chapter.start
        end = chapter.end
    }

    /// Its title, or its number when it has none.
    public var name: String { title ?? "Chapter \(number)" }

    /// An episode's title with the chapter being heard, as the now-playing line and MPRIS show it.
    public static func title(_ title: String, chapter: String) -> String { "\(title) · \(chapter)" }
}

extension NowPlaying.Sleep {
    public init(_ timer: SleepTimer) {
        switch timer {
        case .after(let seconds): self = .seconds(seconds)
        case .endOfEpisode: self = .endOfEpisode
        }
    }
}

/// The requests a running player answers on its control socket, one line each, and what they
/// ask of the player. The reply is `ok`, `error <why>`, or for `status` the report as JSON.
public enum PlayerControl {
    public static func command(for request: String) -> Result<PlayerCommand, ControlRequestError> {
        let words = request.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if words.first == "bookmark" {
            // The note is the rest of the line, as typed.
            let note = request.drop { $0 == " " }.dropFirst("bookmark".count).trimmingWhitespace()
            guard note.count <= noteLimit else {
                return .failure(ControlRequestError("a bookmark's note is at most \(noteLimit) characters"))
            }
            return .success(.bookmark(note: note.isEmpty ? nil : note, ticket: nil))
        }
        switch (words.first, words.count) {
        case ("pause", 1): return .success(.pause)
        case ("resume", 1): return .success(.resume)
        case ("toggle", 1): return .success(.togglePause)
        case ("stop", 1): return .success(.quit)
        case ("next", 1): return .success(.next)
        case ("previous", 1): return .success(.previous)
        case ("mark-played", 1): return .success(.markPlayed)
        case ("next-chapter", 1): return .success(.nextChapter)
        case ("previous-chapter", 1): return .success(.previousChapter)
        case ("chapters-changed", 1): return .success(.chaptersChanged)
        case ("seek", 2):
            guard let seconds = Double(words[1].hasPrefix("+") ? String(words[1].dropFirst()) : words[1]),
                abs(seconds) <= PlaybackTime.longest
            else { return .failure(ControlRequestError("seek takes seconds, e.g. -15 or +30")) }
            return .success(.seek(by: seconds))
        case ("seek-to", 2):
            guard let seconds = PlaybackTime.parse(words[1]) else {
                return .failure(ControlRequestError("seek-to takes a time: seconds, MM:SS or H:MM:SS"))
            }
            return .success(.setPosition(seconds))
        case ("volume", 2):
            guard let percent = Int(words[1]), SoftwareVolume.range.contains(percent) else {
                return .failure(ControlRequestError("volume takes a percentage from 0 to 100"))
            }
            return .success(.setVolume(percent))
        case ("speed", 2):
            if let sign = words[1].first, sign == "+" || sign == "-" {
                guard let change = Double(words[1].dropFirst()), change <= PlaybackSpeed.range.upperBound else {
                    return .failure(ControlRequestError(speedUsage))
                }
                return .success(.changeSpeed(by: sign == "-" ? -change : change))
            }
            guard let rate = PlaybackSpeed.parse(words[1]) else { return .failure(ControlRequestError(speedUsage)) }
            return .success(.setSpeed(rate))
        case ("sleep", 2):
            switch words[1] {
            case "off": return .success(.setSleepTimer(nil))
            case "cycle": return .success(.cycleSleepTimer)
            case let text where text.hasPrefix("+"):
                guard let seconds = PlaybackDuration.parse(String(text.dropFirst())) else {
                    return .failure(ControlRequestError(sleepUsage))
                }
                return .success(.extendSleepTimer(by: seconds))
            case let text:
                guard let timer = SleepTimer.parse(text) else { return .failure(ControlRequestError(sleepUsage)) }
                return .success(.setSleepTimer(timer))
            }
        default:
            return .failure(ControlRequestError("unknown request '\(request)'"))
        }
    }
}

extension PlayerControl {
    /// The longest note a bookmark takes: a sentence or two, and a reply well within a line.
    public static let noteLimit = 1_000
    static let speedUsage = "speed takes a rate from 0.5 to 3.0 (e.g. 1.5), or a change (+0.1, -0.1)"
    static let sleepUsage = "sleep takes a time of listening (20m, 90s, 1h), +TIME to add, end (of the episode) or off"

    /// The request that asks for `command` (for `attach`, whose keys drive a player elsewhere);
    /// `volume` is the player's, for relative changes.
    public static func request(for command: PlayerCommand, volume: Int) -> String? {
        switch command {
        case .togglePause: return "toggle"
        case .pause: return "pause"
        case .resume: return "resume"
        case .seek(by: let seconds): return "seek \(seconds)"
        case .setPosition(let seconds): return "seek-to \(seconds)"
        case .changeVolume(let change): return "volume \(SoftwareVolume.clamped(volume + change))"
        case .setVolume(let percent): return "volume \(percent)"
        case .next: return "next"
        case .previous: return "previous"
        case .markPlayed: return "mark-played"
        case .bookmark(let note, _): return "bookmark" + (note.map { " " + $0 } ?? "")
        case .nextChapter: return "next-chapter"
        case .previousChapter: return "previous-chapter"
        case .chaptersChanged: return "chapters-changed"
        case .setSpeed(let rate): return "speed \(rate)"
        case .changeSpeed(let change): return change < 0 ? "speed \(change)" : "speed +\(change)"
        case .setSleepTimer(nil): return "sleep off"
        case .setSleepTimer(.endOfEpisode?): return "sleep end"
        case .setSleepTimer(.after(let seconds)?): return "sleep \(seconds)s"
        case .extendSleepTimer(let seconds): return "sleep +\(seconds)s"
        case .cycleSleepTimer: return "sleep cycle"
        case .quit: return "stop"
        case .signal, .redraw, .setChapters, .interruptionBegan, .interruptionEnded, .routeChanged: return nil
        }
    }
}

public struct ControlRequestError: Error, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// The player's now-playing report, written by the player's thread and read by the control
/// socket's.
public final class NowPlayingBoard: Sendable {
    private let report = Mutex<NowPlayingReport?>(nil)
    /// Where `bookmark` requests wait for the player to record them.
    public let bookmarks = BookmarkDesk()

    public func post(_ latest: NowPlayingReport) { report.withLock { $0 = latest } }

    /// The answer to `status` before the player has reported (it is opening the episode).
    public static let notYet = "error nothing is playing yet"

    /// The answer to a request line.
    public func answer(_ request: String, commands: CommandQueue) -> String {
        if request == "status" {
            guard let current = report.withLock({ $0 }),
                let json = try? JSONEncoder().encode(current)
            else { return Self.notYet }
            return String(decoding: json, as: UTF8.self)
        }
        switch PlayerControl.command(for: request) {
        case .success(.bookmark(let note, _)):
            let ticket = bookmarks.open()
            commands.post(.bookmark(note: note, ticket: ticket))
            return bookmarks.reply(to: ticket)
                ?? "error the player did not confirm the bookmark in time (see 'podcli bookmarks')"
        case .success(let command):
            commands.post(command)
            return "ok"
        case .failure(let error):
            return "error " + error.message
        }
    }
}
