/// What a user (or a signal, or another program) asks of the player. Commands state intent; the
/// engine decides what each means now, and the player carries it out between two writes.
public enum PlayerCommand: Equatable, Sendable {
    case togglePause
    case pause
    case resume
    /// Relative seek, in seconds (negative goes back).
    case seek(by: Double)
    /// Absolute seek, in seconds from the start.
    case setPosition(Double)
    /// Volume change in percentage points.
    case changeVolume(by: Int)
    /// Volume in percent (0 to 100).
    case setVolume(Int)
    /// Speed, pitch kept: kept within `PlaybackSpeed.range`, on its steps.
    case setSpeed(Double)
    /// Speed change (+0.1, -0.1).
    case changeSpeed(by: Double)
    /// Stop after this much listening (wall time), or at the end of the episode; nil: never.
    case setSleepTimer(SleepTimer?)
    /// Adds to the sleep timer's time left (starts one when there is none).
    case extendSleepTimer(by: Double)
    /// The sleep key: off, 15, 30, 45, 60 minutes, the end of the episode, off again.
    case cycleSleepTimer
    case next
    case previous
    /// To the next chapter that is a stop (none after the last).
    case nextChapter
    /// Back to the start of the chapter being heard, or within its first 3 s to the one before.
    case previousChapter
    /// The listener chose other chapters to skip: whoever knows them reads them again.
    case chaptersChanged
    /// The episode's chapters, read again.
    case setChapters(ChapterMarks)
    /// Mark the episode played and move on, as if it had ended.
    case markPlayed
    /// Mark the moment being heard: reported as `PlayerEvent.bookmarked` with that frame, for
    /// whoever records bookmarks. The note, and the ticket of a request waiting for the record
    /// (nil for a key), come back with it.
    case bookmark(note: String?, ticket: Int?)
    case quit
    /// A terminating signal (SIGINT, SIGTERM, SIGHUP) arrived: save and stop.
    case signal(Int32)
    /// Nothing changed, but the now-playing line should be drawn again (the terminal was resized).
    case redraw

    // What happens around the player (the audio session's events).
    case interruptionBegan(Interruption)
    case interruptionEnded(Interruption, shouldResume: Bool)
    case routeChanged(RouteChange)
}

extension PlayerCommand {
    /// Quit or a terminating signal: it ends the whole session, not only the episode.
    public var endsTheSession: Bool {
        switch self {
        case .quit, .signal: return true
        default: return false
        }
    }
}

/// Something that takes the sound away for a while, as an iOS audio session would report it.
public enum Interruption: Hashable, Sendable, CustomStringConvertible {
    /// The user suspended podcli (Ctrl-Z, SIGTSTP) until SIGCONT.
    case suspend
    /// The system went to sleep (logind's PrepareForSleep, or ALSA's -ESTRPIPE after it).
    case systemSleep
    /// Another program holds the sound device; podcli tries again with a growing delay.
    case deviceBusy

    public var description: String {
        switch self {
        case .suspend: return "suspend"
        case .systemSleep: return "system sleep"
        case .deviceBusy: return "device busy"
        }
    }
}

/// A change of where the sound goes, with its reason.
public enum RouteChange: Equatable, Sendable {
    /// The device in use went away (headphones unplugged; a USB, Bluetooth or network sink gone;
    /// its sound server stopped).
    case oldDeviceUnavailable(reason: String)
    /// A device appeared (headphones plugged in).
    case newDeviceAvailable
    /// The configuration changed in some other way.
    case override
}

/// Why the player stopped playing an episode.
public enum StopReason: Equatable, Sendable {
    /// The last sample was played.
    case endOfEpisode
    /// `--for` said how much to play, and that much was played.
    case limitReached
    case next
    case previous
    case markedPlayed
    /// The sleep timer ran out (or the episode it was set to end with ended).
    case sleepTimer
    case quit
    case signal(Int32)
}
