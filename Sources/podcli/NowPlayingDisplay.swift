import Foundation
import Playback
import Terminal

/// Shows what is playing: on a terminal, one now-playing line redrawn in place; otherwise (a
/// pipe, a log file) one plain line per event.
final class NowPlayingDisplay {
    private let output: Output
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    /// True while the now-playing line is on screen (so the next text starts on a clean line).
    private var lineShown = false

    init(output: Output) { self.output = output }

    func show(_ status: PlayerStatus, title: String, podcast: String?, episodeID: Int) {
        if case .skippedCorruptAudio(let frame, let reason) = status.event {
            clearLine()
            output.error(
                "warning: #\(episodeID): skipped audio that cannot be decoded at \(clock(frame, status)): \(reason)")
        }
        if isTerminal {
            guard !output.quiet else { return }
            let info = NowPlaying(
                podcast: podcast, title: title, elapsed: status.seconds, duration: status.duration,
                volume: status.volume, state: status.isPaused ? "paused" : "playing")
            let columns = Terminal.columns(of: STDOUT_FILENO) ?? 80
            output.stdout("\r" + NowPlayingLine.render(info, columns: columns - 1) + "\u{1B}[K")
            lineShown = true
        } else if let line = eventLine(status, title: title, podcast: podcast, episodeID: episodeID) {
            output.print(line)
        }
    }

    /// A line of its own (above the now-playing line, which the next update redraws).
    func note(_ text: String) {
        clearLine()
        output.print(text)
    }

    /// Leaves the terminal on a fresh line.
    func finish() {
        guard lineShown else { return }
        output.stdout("\n")
        lineShown = false
    }

    private func clearLine() {
        guard lineShown else { return }
        output.stdout("\r\u{1B}[K")
        lineShown = false
    }

    private func eventLine(_ status: PlayerStatus, title: String, podcast: String?, episodeID: Int) -> String? {
        let at = clock(status.position, status)
        let of = status.duration.map { " of " + NowPlayingLine.clock($0) } ?? ""
        switch status.event {
        case .started?:
            return "Playing #\(episodeID) " + (podcast.map { "\($0) — " } ?? "") + title + " from \(at)\(of)"
        case .paused?: return "Paused at \(at)"
        case .resumed?: return "Resumed at \(at)"
        case .seeked(_, let to)?: return "Seeked to \(clock(to, status))"
        case .volumeChanged(let volume)?: return "Volume \(volume)%"
        case .stopped(.endOfEpisode, _)?: return nil
        case .stopped(.next, _)?: return "Skipped #\(episodeID) at \(at)"
        case .stopped(_, _)?: return "Stopped at \(at)\(of)"
        case .skippedCorruptAudio?, .redraw?, nil: return nil
        }
    }

    private func clock(_ frame: Int, _ status: PlayerStatus) -> String {
        NowPlayingLine.clock(Double(frame) / Double(status.sampleRate))
    }
}
