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
        discussion: discussion,
        positionals: [episode], options: [device, from, duration, volume, speed, skipSilence, loudness, sleep],
        flags: [background], group: .playback,
        examples: [
            Example("podcli play", "Play the queue, from where it was left."),
            Example(
                "podcli play 42 --speed 1.5 --skip-silence mild --sleep 30m",
                "Play episode 42 faster, shorter silences, for half an hour."),
        ])

    static let discussion = """
        Keys, when stdin is a terminal:
          space     play / pause
          ← →       back 15 s / forward 30 s (config: skip-back, skip-forward)
          , .       back / forward 5 s
          ↑ ↓       volume up / down by 5%
          n p       next / previous in the queue (p after 3 s: this episode's start)
          m         mark played and go on to the next
          < >       previous chapter (after 3 s into one: its start) / next chapter
          [ ]       slower / faster by 0.1, for the rest of the session
          \\         speed 1.0
          z         sleep timer: off, 15, 30, 45, 60 minutes, end of episode
          b         bookmark the moment heard (see 'podcli bookmarks')
          t         show / hide the transcript's cue under the now-playing line
          q         quit, saving the position

        Where it starts: the saved position (the start for an episode played to its end); --from \
        overrides it, and a --from past the end is refused (exit 64). The position is saved twice a \
        second and on every way out (q, the end, SIGINT, SIGTERM, SIGHUP); the end of an episode (or \
        m) marks it played, takes it off the queue and plays the next one. Positions are the \
        episode's own time, whatever the speed; a seek lands on the frame asked for.

        Device: --device, else PODCLI_DEVICE, else the config's device, else 'default'. With no \
        usable device, one line says how to choose one (exit 69). A device another program holds is \
        waited for ("Interrupted (device busy)"); a device that goes away (headphones unplugged, a \
        USB sink gone) pauses, and nothing resumes by itself. Ctrl-Z pauses and saves; 'fg' resumes. \
        System sleep pauses before and resumes after.

        Listening, each from its option, else the feed's setting, else the global one:
        - speed: pitch kept; a change with [ ] or 'podcli speed' is heard within about 0.1 s.
        - sleep: listening time (a pause stops it); the last 10 s fade out, then play ends \
        (exit 0, "Sleep timer: stopped at ...") with the position where the fade began.
        - skip-silence: a pause under -42 dBFS longer than 582, 450 or 83 ms (mild, medium, \
        aggressive) keeps 291, 225 or 20 ms at each end; the time saved shows in 'show' and 'stats'.
        - loudness: a gain of at most +12 dB to the target, a limiter keeping true peaks under \
        -1 dBTP; an episode not measured yet (a stream) is measured as it plays, the gain ramping.
        - skip-intro, skip-outro (seconds): an episode played from its beginning (not resumed, \
        not --from) starts past its intro; an episode ends before its outro, marked played.

        Streaming: an episode not downloaded yet (or an audio URL) downloads into its directory as \
        'fetch' would, while it plays; playing starts once 256 KiB have arrived, and seeks go as far \
        as what has arrived. An M4A whose index (moov) is at its end waits for the whole file. \
        Quitting keeps what arrived, and the next play or fetch resumes it.

        Bad audio: a stretch that cannot be decoded is skipped with a warning. A file that is not \
        playable audio is exit 65; FFmpeg's libraries missing (for anything but MP3) is exit 69. In \
        a queue, a bad episode is named and skipped, and its exit code is play's at the end.

        On a terminal a now-playing line is redrawn in place; otherwise each event is one plain line \
        ('Playing #12 ...', 'Paused at 1:30', 'Stopped at ...'); --quiet hides them. With \
        --background the player runs with no terminal, logging to control.log beside the control \
        socket; 'podcli attach' takes its keys (see 'podcli status' for remote control).

        Exit status: 64 when --from is past the end, 65 when the audio cannot be played, 69 when \
        no device works or FFmpeg is missing, 74 when the position cannot be saved (or \
        --background cannot make its control socket), 75 when --background finds a player \
        already answering, 128 + n when stopped by signal n (130 SIGINT, 143 SIGTERM, 129 \
        SIGHUP) after saving the position.
        """

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
