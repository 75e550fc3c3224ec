import EpisodeStore
import Playback
import PodcliKit
import Strings
import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// Shows what is playing: on a terminal, one now-playing line redrawn in place; otherwise (a
/// pipe, a log file) one plain line per event.
final class NowPlayingDisplay: PlayDisplay {
    private let output: Output
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    /// Set when stdout has closed (`podcli play | head -1`): the session then stops, saving.
    private(set) var readerGone = false
    /// True while the now-playing line is on screen (so the next text starts on a clean line).
    private var lineShown = false
    /// The cue `t` asked for, drawn on the line under the now-playing line.
    private var cue: String?
    private var cueLine = CueLine()

    init(output: Output) {
        var output = output
        output.exitsWhenStdoutCloses = false
        self.output = output
    }

    /// - Parameters:
    ///   - podcast: the title of the episode's feed, if it has one.
    ///   - author: the episode's author, else the feed's.
    ///   - chapter: the chapter being heard, shown after the episode's title.
    func show(_ status: PlayerStatus, of episode: Episode, podcast: String?, author: String?, chapter: String?) {
        if case .skippedCorruptAudio(let frame, let reason) = status.event {
            warn("warning: #\(episode.id): skipped audio that cannot be decoded at \(clock(frame, status)): \(reason)")
        }
        // While a stream arrives its length is unknown; the feed's word for it is the next best.
        let duration = status.duration ?? episode.durationMilliseconds.map { Double($0) / 1000 }
        if isTerminal {
            guard !output.quiet else { return }
            let title = chapter.map { NowPlayingChapter.title(episode.title, chapter: $0) } ?? episode.title
            let info = NowPlaying(
                podcast: podcast, title: title, elapsed: status.seconds, duration: duration,
                volume: status.volume, state: status.state.description, rate: status.speed,
                sleep: status.sleep.map(NowPlaying.Sleep.init), author: author)
            let columns = Terminal.columns(of: STDOUT_FILENO) ?? 80
            let line = NowPlayingLine.render(info, columns: columns - 1)
            written(output.stdout("\r" + line + "\u{1B}[K" + cueLine.drawn(cue, columns: columns)))
            lineShown = true
            // Said in words too: the listener may wake to a terminal that stopped by itself.
            if case .stopped(.sleepTimer, _)? = status.event,
                let line = eventLine(status, of: episode, podcast: podcast, duration: duration)
            {
                note(line)
            }
        } else if let line = eventLine(status, of: episode, podcast: podcast, duration: duration) {
            written(output.print(line))
        }
    }

    func showCue(_ line: String?) { cue = line }

    /// An error line on stderr that does not end the session.
    func warn(_ text: String) {
        clearLine()
        output.error(text)
    }

    /// A line of its own (above the now-playing line, which the next update redraws).
    func note(_ text: String) {
        clearLine()
        written(output.print(text))
    }

    private func written(_ succeeded: Bool) {
        if !succeeded { readerGone = true }
    }

    /// Leaves the terminal on a fresh line.
    func finish() {
        guard lineShown else { return }
        // The cue is gone with the session: its line is cleared, the now-playing line kept.
        output.stdout("\n" + cueLine.cleared())
        lineShown = false
    }

    private func clearLine() {
        guard lineShown else { return }
        output.stdout("\r" + (cueLine.isShown ? cueLine.cleared() : "\u{1B}[K"))
        lineShown = false
    }

    private func eventLine(_ status: PlayerStatus, of episode: Episode, podcast: String?, duration: Double?) -> String?
    {
        let at = clock(status.position, status)
        let of = duration.map { " of " + NowPlayingLine.clock($0) } ?? ""
        switch status.event {
        case .started?:
            return "Playing #\(episode.id) " + (podcast.map { "\($0) — " } ?? "") + episode.title + " from \(at)\(of)"
        case .stateChanged(.playing, _)?: return "Resumed at \(at)"
        case .stateChanged(.paused, _)?: return "Paused at \(at)"
        case .stateChanged(let state, _)?:
            return "\(state.description.prefix(1).uppercased())\(state.description.dropFirst()) at \(at)"
        case .seeked(_, let to)?: return "Seeked to \(clock(to, status))"
        case .volumeChanged(let volume)?: return "Volume \(volume)%"
        case .speedChanged(let rate)?: return "Speed " + NowPlayingLine.rate(rate)
        case .sleepTimerChanged?: return Self.sleepTimer(status.sleep.map(NowPlaying.Sleep.init))
        case .stopped(.endOfEpisode, _)?: return nil
        case .stopped(.next, _)?: return "Skipped #\(episode.id) at \(at)"
        case .stopped(.sleepTimer, _)?: return "Sleep timer: stopped at \(at)\(of), where the fade began"
        case .stopped(_, _)?: return "Stopped at \(at)\(of)"
        // A bookmark is told once recorded, with its number (`PlaySession.recordBookmark`).
        case .skippedCorruptAudio?, .suspending?, .redraw?, .bookmarked?, .chaptersChanged?, nil: return nil
        }
    }

    /// What is left of the sleep timer, in words (also for `status`).
    static func sleepTimer(_ sleep: NowPlaying.Sleep?) -> String {
        switch sleep {
        case .seconds(let seconds)?: return "Sleep timer: stops in " + NowPlayingLine.clock(seconds.rounded(.up))
        case .endOfEpisode?: return "Sleep timer: stops at the end of the episode"
        case nil: return "Sleep timer off"
        }
    }

    private func clock(_ frame: Int, _ status: PlayerStatus) -> String {
        NowPlayingLine.clock(Double(frame) / Double(status.sampleRate))
    }
}

/// The line under the now-playing line that shows `t`'s cue (for `play` and `attach`): drawn
/// after the now-playing line, the cursor left on that line; cleared when the cue is hidden.
struct CueLine {
    /// True while a cue is on the line under the now-playing line (so hiding it clears that line).
    private(set) var isShown = false

    /// What to write after the now-playing line: the cue on the next line, then back up; when it
    /// was hidden, the line it was on cleared.
    mutating func drawn(_ cue: String?, columns: Int) -> String {
        defer { isShown = cue != nil }
        guard let cue else { return isShown ? "\u{1B}[J" : "" }
        return "\n" + DisplayWidth.fit(PrintableText.line(cue), columns: columns - 1) + "\u{1B}[K\u{1B}[1A\r"
    }

    /// What clears the rest of the screen from the cursor (the cue's line with it), once no line
    /// is drawn any more.
    mutating func cleared() -> String {
        defer { isShown = false }
        return isShown ? "\u{1B}[J" : ""
    }
}
