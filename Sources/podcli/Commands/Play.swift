import Arguments
import Downloads
import EpisodeStore
import Playback
import PodcliKit

/// `podcli play [ID]`: plays an episode (or the queue) on an ALSA device, from where it was left.
enum Play: Command {
    static let episode = Positional(
        "id|url",
        help: "The episode's number or UUID prefix, or an audio URL (default: the queue).",
        isOptional: true, domain: .dynamic(.episode))
    static let device = Option(
        "device", valueName: "name",
        help: "The ALSA device (default: PODCLI_DEVICE, the config's device, else 'default'); 'null' plays silently.",
        domain: .dynamic(.device))
    static let from = Option(
        "from", valueName: "time", help: "Start at <time> (seconds, MM:SS or H:MM:SS) instead of where it was left.")
    static let duration = Option("for", valueName: "time", help: "Stop after playing <time> of audio.")
    static let volume = Option("volume", valueName: "percent", help: "Start at this volume, 0 to 100 (default 100).")
    static let speed = Option(
        "speed", valueName: "rate", help: "Play at this speed, pitch kept: 0.5 to 3.0 (default: the config's speed).")
    static let skipSilence = Option(
        "skip-silence", valueName: "level",
        help: "Shorten silences: off, mild, medium or aggressive (default: the config's skip-silence).",
        domain: .choices(SilenceSkipping.allCases.map(\.rawValue)))
    static let loudness = Option(
        "loudness", valueName: "lufs|off",
        help: "Bring episodes to this loudness, e.g. -16, or off (default: the config's loudness).")
    static let sleep = Option(
        "sleep", valueName: "time|end", help: "Stop after this much listening (20m, 1h) or at the end of the episode.")
    static let background = Flag(
        "background", help: "Play with no terminal, driven by 'podcli attach', 'status', 'pause'... and MPRIS.")

    static let spec = CommandSpec(
        name: "play", abstract: "Play an episode, or the queue, from where it was left.",
        discussion: """
            Keys (when stdin is a terminal): space play/pause, ←/→ back 15 s / forward 30 s \
            (config: skip-back, skip-forward), ,/. back/forward 5 s, ↑/↓ volume, n/p next/previous \
            in the queue, m mark played and go on, b bookmark (see 'podcli bookmarks'), [/] slower/faster by 0.1, \\ speed 1.0, z sleep timer \
            (off, 15, 30, 45, 60 minutes, end of episode), q quit.

            An episode not downloaded yet (or an audio URL) plays while it downloads into its \
            directory, as 'fetch' would download it; seeks go as far as what has arrived.

            The position is saved twice a second and on every way out (q, the end, SIGINT, \
            SIGTERM, SIGHUP); one that cannot be saved when play stops (a full disk) is an error \
            (exit 74). The end of an episode marks it played, takes it off the queue and plays \
            the next one.
            """,
        positionals: [episode], options: [device, from, duration, volume, speed, skipSilence, loudness, sleep],
        flags: [background], group: .playback,
        examples: [
            Example("podcli play", "Play the queue, or the newest episode, from where it was left."),
            Example(
                "podcli play 42 --speed 1.5 --skip-silence mild --sleep 30m",
                "Play episode 42 faster, shorter silences, for half an hour."),
        ])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let start = try arguments.value(from, as: "a time (seconds, MM:SS or H:MM:SS)", PlaybackTime.parse)
        let limit = try arguments.value(duration, as: "a time (seconds, MM:SS or H:MM:SS)", PlaybackTime.parse)
        let volume = try arguments.value(volume, as: "a volume from 0 to 100") { text in
            Int(text).flatMap { SoftwareVolume.range.contains($0) ? $0 : nil }
        }
        var listening = Listening()
        listening.speed = try arguments.value(speed, as: "a speed from 0.5 to 3.0", PlaybackSpeed.parse)
        // The parser let only the levels through.
        listening.skipSilence = arguments[skipSilence].flatMap(SilenceSkipping.init(rawValue:))
        listening.loudness = try arguments.value(
            loudness, as: "a loudness from -40 to -5 (LUFS), or off", LoudnessTarget.init)
        let sleepTimer = try arguments.value(sleep, as: "a time of listening (20m, 90s, 1h) or end", SleepTimer.parse)
        if arguments[background] {
            let pid = try BackgroundPlayer.start(
                arguments: Array(CommandLine.arguments.dropFirst()).filter { $0 != "--background" },
                controlSocket: context.directories.get().controlSocket)
            context.output.print("Playing in the background (\(pid)): 'podcli status', 'podcli attach', 'podcli stop'")
            return
        }
        let config = try context.config()
        let library = try context.library()
        var settings = try Listening(config: config, library: library)
        (settings.speed, settings.skipSilence, settings.loudness) = (
            listening.speed, listening.skipSilence, listening.loudness
        )
        let playlist = try Playlist(arguments[episode], library: library, protection: config.protection)
        let session = PlaySession(
            library: library, display: NowPlayingDisplay(output: context.output),
            device: arguments[device] ?? context.environment["PODCLI_DEVICE"] ?? config.device ?? "default",
            keymap: Keymap(skipBack: config.skipBack, skipForward: config.skipForward),
            downloadPolicy: context.downloadPolicy, controlSocket: try context.directories.get().controlSocket,
            helpers: Helpers(context: context),
            requiresRemoteControl: context.environment[BackgroundPlayer.marker] == "1",
            listening: settings)
        let engine = PlaybackEngine(volume: volume ?? 100, sleepTimer: sleepTimer)
        let reason = try session.run(playlist, from: start, limit: limit, engine: engine)
        if case .signal(let number) = reason { throw TerminatedBySignal(number: number) }
    }
}

/// podcli was stopped by SIGINT, SIGTERM or SIGHUP after saving its state: it exits with
/// 128 + the signal's number, as a shell reports a process killed by that signal.
struct TerminatedBySignal: Error {
    let number: Int32
}
