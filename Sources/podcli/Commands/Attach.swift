import Arguments
import FoundationEssentials
import Playback
import PodcliKit
import RemoteControl
import Terminal
import Transcripts

#if canImport(Glibc)
    import Glibc
#endif

/// `podcli attach`: the running player's now-playing line, live, and its keys, from any terminal
/// (for a player started with `--background`, or in another terminal). `q` detaches; the player
/// plays on (`podcli stop` stops it).
enum Attach: Command {
    static let spec = CommandSpec(
        name: "attach", abstract: "Show the running player's now-playing line and take its keys (q detaches).",
        discussion: discussion, group: .playback)

    static let discussion = """
        The keys are play's ('podcli help play'), t too: the cue being spoken from the episode's \
        kept transcript. q detaches and leaves the player playing ('podcli stop' stops it). A \
        suspended player shows as suspended until it continues.

        Exit status: 66 when no player is running, 75 when it does not answer within 1 s.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let socket = try context.directories.get().controlSocket
        guard let terminal = TerminalMode(descriptor: STDIN_FILENO) else {
            throw CommandFailure(
                description: "attach takes keys from a terminal, and stdin is not one", exitCode: .usage)
        }
        var report = try status(at: socket)
        let config = try context.config()
        let keymap = Keymap(skipBack: config.skipBack, skipForward: config.skipForward)
        try terminal.enterRaw()
        defer { terminal.restore() }
        var keys = KeyDecoder()
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        var bytes = [UInt8](repeating: 0, count: 64)
        // `t` is this display's own key, not the player's: the cue is read here, from the library.
        var transcriptWanted = false
        var transcript: (episodeID: Int, cues: PlayingTranscript)?
        var cueLine = CueLine()
        while true {
            if transcript?.episodeID != report.id {
                let id = report.id
                transcript = (id, PlayingTranscript(Self.cachedTranscript(of: id, in: context)))
            }
            let cue = transcript?.cues.line(at: report.position, wanted: transcriptWanted, episodeID: report.id) {
                context.output.stdout("\r\u{1B}[K" + cueLine.cleared())
                context.output.print($0)
            }
            draw(report, cue: cue, cueLine: &cueLine, output: context.output)
            if poll(&input, 1, 250) > 0 {
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                // The terminal hung up: detach.
                guard count > 0 || (count < 0 && errno == EINTR) else { return }
                for key in keys.decode(bytes[..<max(0, count)]) {
                    if key == .character("q") {
                        context.output.stdout("\n" + cueLine.cleared())
                        return
                    }
                    if key == .character("t") {
                        transcriptWanted.toggle()
                        continue
                    }
                    guard let command = keymap.command(for: key),
                        let request = PlayerControl.request(for: command, volume: report.volume)
                    else { continue }
                    let reply = try? ControlClient.send(request, to: socket)
                    // A bookmark says where it was made, as the player's own line does.
                    if case .bookmark = command, let reply,
                        let bookmark = try? JSONDecoder().decode(BookmarkReport.self, from: Data(reply.utf8))
                    {
                        context.output.stdout("\r\u{1B}[K" + cueLine.cleared())
                        context.output.print("Bookmark \(bookmark.id) \(bookmark.moment)")
                    }
                }
            }
            do {
                report = try status(at: socket)
            } catch ControlError.nothingPlaying {
                context.output.stdout("\n" + cueLine.cleared())
                context.output.print("The player has stopped.")
                return
            } catch ControlError.suspended {
                // Stopped by Ctrl-Z where it runs: shown as such until it continues.
                report.state = "suspended"
            } catch ControlError.notAnswering {
                report.state = "not answering"
            }
        }
    }

    private static func status(at socket: String) throws -> NowPlayingReport {
        guard case .playing(let report, _) = try PlayerAnswer.ask(at: socket) else { throw ControlError.nothingPlaying }
        return report
    }

    /// The episode's kept transcript, read when `t` first wants it.
    private static func cachedTranscript(of episodeID: Int, in context: Context) -> Transcript? {
        guard let library = try? context.library(), let episode = try? library.episode(id: episodeID) else {
            return nil
        }
        return EpisodeTranscript.cached(for: episode, in: library)
    }

    private static func draw(_ report: NowPlayingReport, cue: String?, cueLine: inout CueLine, output: Output) {
        let columns = Terminal.columns(of: STDOUT_FILENO) ?? 80
        let line = NowPlayingLine.render(
            NowPlaying(
                podcast: report.podcast, title: report.title, elapsed: report.position, duration: report.duration,
                volume: report.volume, state: report.state, rate: report.rate, sleep: report.sleep),
            columns: columns - 1)
        output.stdout("\r" + line + "\u{1B}[K" + cueLine.drawn(cue, columns: columns))
    }
}
