import FoundationEssentials
import RemoteControl

#if canImport(Glibc)
    import Glibc
#endif

/// `podcli play --background`: the same `play`, run again as a process of its own session
/// (`DetachedProcess`), with no terminal (closing the terminal does not stop it), its output in a
/// log beside the control socket. The command returns once the player answers on the socket.
public enum BackgroundPlayer {
    /// Set for the player it starts: a player nothing can reach (no terminal, no socket) must not
    /// play on, so one whose control socket cannot be made exits with that error.
    public static let marker = "PODCLI_BACKGROUND"

    /// Starts the player with `arguments` (its command line, as `DetachedProcess` takes it) and
    /// returns its pid once it answers.
    /// - Throws: `ControlError.alreadyPlaying` when a player answers already; `PodcliError
    ///   .playerStopped` with the player's own last words and exit status when it stops before
    ///   answering, `.playerNotStarted`, `.playerNotAnswering`.
    @discardableResult
    public static func start(arguments: [String], controlSocket: String) throws -> pid_t {
        // The player to be started would find the socket taken, and this one its answers.
        do {
            _ = try ControlClient.send("status", to: controlSocket)
            throw ControlError.alreadyPlaying(path: controlSocket)
        } catch ControlError.suspended, ControlError.notAnswering {
            throw ControlError.alreadyPlaying(path: controlSocket)
        } catch ControlError.nothingPlaying, ControlError.socket {
            // None: the player will make the socket, or say why it cannot.
        }
        let log = controlSocket + ".log"
        // The log sits beside the socket, in a directory only this user controls.
        let directory = String(controlSocket[..<(controlSocket.lastIndex(of: "/") ?? controlSocket.startIndex)])
        if !directory.isEmpty { try ControlSocket.prepareDirectory(directory) }
        let pid: pid_t
        switch DetachedProcess.spawn(arguments, log: log, environment: [marker: "1"]) {
        case .success(let started): pid = started
        case .failure(let error):
            throw PodcliError.playerNotStarted(reason: "\(error)")
        }
        // Up when it reports what it plays; gone if it exits first (no device, no such episode...).
        for _ in 0..<200 {
            if let reply = try? ControlClient.send("status", to: controlSocket), !reply.hasPrefix("error ") {
                return pid
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let words = (try? String(contentsOfFile: log, encoding: .utf8))?
                    .split(separator: "\n").last.map { String($0.dropFirst($0.hasPrefix("podcli: ") ? 8 : 0)) }
                throw PodcliError.playerStopped(
                    words: words ?? "the player stopped at once", status: (status >> 8) & 0xff)
            }
            usleep(25_000)
        }
        throw PodcliError.playerNotAnswering(log: log)
    }
}
