import Arguments
import FoundationEssentials
import Playback
import PodcliKit
import RemoteControl
import Terminal

/// The commands that talk to the running player through its control socket, as the lock
/// screen's buttons would.
enum Remote {
    /// Sends `request` to the player and returns its reply.
    /// - Throws: `ControlError.nothingPlaying` when no player runs; a usage failure when the
    ///   player refuses the request.
    @discardableResult
    static func send(_ request: String, in context: Context) throws -> String {
        let reply = try ControlClient.send(request, to: context.directories.get().controlSocket)
        if reply.hasPrefix("error ") {
            throw CommandFailure(description: String(reply.dropFirst("error ".count)), exitCode: .usage)
        }
        return reply
    }
}

enum Status: Command {
    static let json = Flag("json", help: "Print the report as JSON (also when no player answers).")
    static let spec = CommandSpec(
        name: "status", abstract: "Say what the running player is playing, where, and in what state.",
        discussion: discussion, flags: [json], group: .remoteControl)

    static let discussion = """
        A running player listens on a control socket, so another terminal, a script or a key \
        binding can drive it: status, pause, resume, toggle, stop, next, prev, next-chapter, \
        prev-chapter, seek, seek-to, volume, speed, sleep, bookmark, attach.

        Status gives the state ('playing', 'paused', 'interrupted (suspend)', 'interrupted (system \
        sleep)', 'interrupted (device busy)', 'paused (device lost)', or 'starting' while the player \
        opens its episode), the episode, where it is, the volume, and the rate, sleep timer, chapter, \
        author and artwork when there are some.

        --json keys: state, id, title, podcast, author, position, duration, volume, rate, sleep (seconds or "end"), artwork, chapter (number, title, start, end); with no player: state ("not playing", "suspended", "not answering"), pid, error

        Every client gives up after 1 s; a player stopped by Ctrl-Z is reported at once. The socket \
        is $XDG_RUNTIME_DIR/podcli/control (or control under --home); without XDG_RUNTIME_DIR, \
        $TMPDIR/podcli-UID/control, in a directory podcli makes 0700 and refuses when it is a link \
        or another user's. The player answers only its own user (SO_PEERCRED). A second play while \
        one runs plays without remote control. With a session bus the player is also \
        org.mpris.MediaPlayer2.podcli (media keys, playerctl), with its artwork: the picture in the \
        file, else the episode's or the podcast's image, cut square to at most 600 px and cached as \
        .artwork.jpg in the episode's directory.

        Exit status: 64 when the player refuses a request (volume 150), 66 when no player is \
        running, 75 when it is suspended or does not answer within 1 s.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let answer: PlayerAnswer
        do {
            answer = try PlayerAnswer.ask(at: context.directories.get().controlSocket)
        } catch let error as ControlError {
            // A status bar reads stdout: it gets JSON, whatever happened; people get the line.
            if arguments[json] { context.output.json(PlayerAbsence(error).json) }
            throw error
        }
        let report: NowPlayingReport
        let line: String
        switch answer {
        case .starting:
            let starting = PlayerAbsence(state: "starting", pid: nil, error: nil)
            if arguments[json] {
                context.output.json(starting.json)
            } else {
                context.output.print("Starting.", always: true)
            }
            return
        case .unreadable(let reply):
            throw CommandFailure(description: reply, exitCode: .usage)
        case .playing(let playing, let reply):
            (report, line) = (playing, reply)
        }
        if arguments[json] {
            context.output.json(line)
            return
        }
        context.output.print(headline(report), always: true)
        let duration = report.duration.map { " / " + NowPlayingLine.clock($0) } ?? ""
        let rate = report.rate == 1 ? "" : ", rate " + NowPlayingLine.rate(report.rate)
        context.output.print(
            "\(NowPlayingLine.clock(report.position))\(duration), volume \(report.volume)%\(rate)", always: true)
        if let chapter = report.chapter { context.output.print(ChaptersCommand.line(chapter), always: true) }
        if report.sleep != nil { context.output.print(NowPlayingDisplay.sleepTimer(report.sleep), always: true) }
        if let author = report.author { context.output.print("By: \(author)", always: true) }
        if let artwork = report.artwork { context.output.print("Artwork: \(artwork)", always: true) }
    }
}

extension Status {
    /// "Playing: #12 The Podcast — The Episode".
    static func headline(_ report: NowPlayingReport) -> String {
        let state = report.state.prefix(1).uppercased() + report.state.dropFirst()
        return "\(state): #\(report.id) " + (report.podcast.map { "\($0) — " } ?? "") + report.title
    }
}

/// A command that sends one fixed request.
protocol RemoteButton: Command {
    static var request: String { get }
}

extension RemoteButton {
    static func run(_ arguments: ParsedArguments, in context: Context) throws { try Remote.send(request, in: context) }
}

enum PauseButton: RemoteButton {
    static let request = "pause"
    static let spec = CommandSpec(name: "pause", abstract: "Pause the running player.", group: .remoteControl)
}

enum ResumeButton: RemoteButton {
    static let request = "resume"
    static let spec = CommandSpec(name: "resume", abstract: "Resume the running player.", group: .remoteControl)
}

enum ToggleButton: RemoteButton {
    static let request = "toggle"
    static let spec = CommandSpec(
        name: "toggle", abstract: "Pause the running player, or resume it.", group: .remoteControl)
}

enum StopButton: RemoteButton {
    static let request = "stop"
    static let spec = CommandSpec(
        name: "stop", abstract: "Stop the running player (the position is saved).", group: .remoteControl)
}

enum NextButton: RemoteButton {
    static let request = "next"
    static let spec = CommandSpec(
        name: "next", abstract: "Go on to the next episode in the queue.", group: .remoteControl)
}

enum PreviousButton: RemoteButton {
    static let request = "previous"
    static let spec = CommandSpec(
        name: "prev", abstract: "Go back to the previous episode (after its first 3 seconds: to the start).",
        group: .remoteControl)
}

enum NextChapterButton: RemoteButton {
    static let request = "next-chapter"
    static let spec = CommandSpec(
        name: "next-chapter", abstract: "Go on to the next chapter of the episode playing.", group: .remoteControl)
}

enum PreviousChapterButton: RemoteButton {
    static let request = "previous-chapter"
    static let spec = CommandSpec(
        name: "prev-chapter",
        abstract: "Go back to the start of the chapter playing (within its first 3 seconds: to the one before).",
        group: .remoteControl)
}

/// A command that sends a request with one value (the player checks it).
protocol RemoteDial: Command {
    static var value: Positional { get }
}

extension RemoteDial {
    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        try Remote.send("\(spec.name) \(arguments[value]!)", in: context)
    }
}

enum Seek: RemoteDial {
    static let value = Positional("seconds", help: "How far to jump: -15 goes back, 30 or +30 forward.")
    static let spec = CommandSpec(
        name: "seek", abstract: "Jump back or forward in the running player.", positionals: [value],
        group: .remoteControl)
}

enum SeekTo: RemoteDial {
    static let value = Positional("time", help: "Where to go: seconds, MM:SS or H:MM:SS.")
    static let spec = CommandSpec(
        name: "seek-to", abstract: "Go to a time in the running player.", positionals: [value], group: .remoteControl)
}

enum Volume: RemoteDial {
    static let value = Positional("percent", help: "The volume, 0 to 100.")
    static let spec = CommandSpec(
        name: "volume", abstract: "Set the running player's volume.", positionals: [value], group: .remoteControl)
}

enum Speed: RemoteDial {
    static let value = Positional("rate", help: "The speed, 0.5 to 3.0 (pitch kept), or a change: +0.1, -0.1.")
    static let spec = CommandSpec(
        name: "speed", abstract: "Set the running player's speed.", positionals: [value], group: .remoteControl)
}

enum Sleep: RemoteDial {
    static let value = Positional(
        "time", help: "Stop after this much listening (20m, 90s, 1h), +TIME for more, end (of the episode), or off.")
    static let spec = CommandSpec(
        name: "sleep", abstract: "Set the running player's sleep timer (the last 10 s fade out).", positionals: [value],
        group: .remoteControl,
        examples: [
            Example("podcli sleep 20m", "Stop the running player after 20 minutes of listening.")
        ])
}
