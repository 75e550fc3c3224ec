import EpisodeStore
import Playback

/// What a player has played of one episode (`ListeningTime`, with the silence skip silence left
/// out), and how much of it the library has: each position save adds what came since the last.
struct ListeningTally {
    private let player: Player
    private let skipper: SilenceSkipper?
    /// Milliseconds of intro the episode started past, and of outro once it ended before it.
    private var introOutroSkipped: Int
    private var finished = 0
    /// What the library has.
    private var saved = ListeningTime()

    init(_ player: Player, skipper: SilenceSkipper?, introSkipped: Int) {
        self.player = player
        self.skipper = skipper
        self.introOutroSkipped = introSkipped
    }

    /// The episode ended (at its end, at its outro, or marked played): `outroSkipped`
    /// milliseconds before the file's end.
    mutating func finish(outroSkipped: Int) {
        finished = 1
        introOutroSkipped += outroSkipped
    }

    /// Played and not saved yet. Counted from frames, so no save rounds any away; media and
    /// device frames as the device was given them (what `--for` counts).
    var unsaved: ListeningTime {
        let rate = player.format.sampleRate
        let played = ListeningTime(
            media: player.clock.mediaFramesPlayed * 1000 / rate,
            wall: player.clock.deviceFramesPlayed * 1000 / player.deviceSampleRate,
            silenceSkipped: (skipper?.skippedFrames ?? 0) * 1000 / rate, introOutroSkipped: introOutroSkipped,
            finished: finished)
        return played - saved
    }

    /// `time` (an `unsaved` value) is in the library now.
    mutating func saved(_ time: ListeningTime) { saved = saved + time }
}
