import Arguments
import FoundationEssentials
import Playback
import PodcliKit
import RemoteControl
import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// `podcli attach`: the running player's now-playing line, live, and its keys, from any terminal
/// (for a player started with `--background`, or in another terminal). `q` detaches; the player
/// plays on (`podcli stop` stops it).
enum Attach: Command {
    static let spec = CommandSpec(
        name: "attach", abstract: "Show the running player's now-playing line and take its keys (q detaches).",
        discussion: "The keys are play's. Exits with 66 when no player is running.", group: .playback)

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
        while true {
            draw(report, output: context.output)
            if poll(&input, 1, 250) > 0 {
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                // The terminal hung up: detach.
                guard count > 0 || (count < 0 && errno == EINTR) else { return }
                for key in keys.decode(bytes[..<max(0, count)]) {
                    if key == .character("q") {
                        context.output.stdout("\n")
                        return
                    }
                    guard let command = keymap.command(for: key),
                        let request = PlayerControl.request(for: command, volume: report.volume)
                    else { continue }
                    let reply = try? ControlClient.send(request, to: socket)
                    // A bookmark says where it was made, as the player's own line does.
                    if case .bookmark = command, let reply,
                        let bookmark = try? JSONDecoder().decode(BookmarkReport.self, from: Data(reply.utf8))
                    {
                        context.output.stdout("\r\u{1B}[K")
                        context.output.print("Bookmark \(bookmark.id) \(bookmark.moment)")
                    }
                }
            }
            do {
                report = try status(at: socket)
            } catch ControlError.nothingPlaying {
                context.output.stdout("\n")
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

    private static func draw(_ report: NowPlayingReport, output: Output) {
        let line = NowPlayingLine.render(
            NowPlaying(
                podcast: report.podcast, title: report.title, elapsed: report.position, duration: report.duration,
                volume: report.volume, state: report.state, rate: report.rate, sleep: report.sleep),
            columns: (Terminal.columns(of: STDOUT_FILENO) ?? 80) - 1)
        output.stdout("\r" + line + "\u{1B}[K")
    }
}
