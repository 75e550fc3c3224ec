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
    case next
    case previous
    /// Mark the episode played and move on, as if it had ended.
    case markPlayed
    case quit
    /// A terminating signal (SIGINT, SIGTERM, SIGHUP) arrived: save and stop.
    case signal(Int32)
    /// Nothing changed, but the now-playing line should be drawn again (the terminal was resized).
    case redraw
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
    case quit
    case signal(Int32)
}
