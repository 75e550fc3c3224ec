import FoundationEssentials
import RemoteControl

/// What the running player says when asked its status over its control socket: the one way
/// `status`, `attach` and `podcli` alone ask it.
public enum PlayerAnswer {
    /// The player is up but has not opened its episode yet.
    case starting
    /// The report, and the line it came as (JSON, for `status --json`).
    case playing(NowPlayingReport, line: String)
    /// The player answered what a client that is not current cannot read.
    case unreadable(String)

    /// Asks the player at `socket`.
    /// - Throws: `ControlError` when no player answers (none running, suspended, not answering).
    public static func ask(at socket: String) throws(ControlError) -> PlayerAnswer {
        let reply = try ControlClient.send("status", to: socket)
        if reply == NowPlayingBoard.notYet { return .starting }
        guard !reply.hasPrefix("error "),
            let report = try? JSONDecoder().decode(NowPlayingReport.self, from: Data(reply.utf8))
        else { return .unreadable(String(reply.dropFirst(reply.hasPrefix("error ") ? 6 : 0))) }
        return .playing(report, line: reply)
    }
}

/// What `status --json` prints when no player answers (or it is only starting): the state, its
/// pid when there is one, and the words of the error. A status bar reads it from stdout whatever
/// happened.
public struct PlayerAbsence: Encodable, Sendable {
    public var state: String
    public var pid: Int32?
    public var error: String?

    public init(state: String, pid: Int32?, error: String?) {
        self.state = state
        self.pid = pid
        self.error = error
    }

    public init(_ error: ControlError) {
        switch error {
        case .nothingPlaying: self.init(state: "not playing", pid: nil, error: error.description)
        case .suspended(let pid): self.init(state: "suspended", pid: pid, error: error.description)
        case .notAnswering(let pid): self.init(state: "not answering", pid: pid, error: error.description)
        case .socket, .alreadyPlaying: self.init(state: "unknown", pid: nil, error: error.description)
        }
    }

    /// One line of JSON.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"state":"unknown"}"#
    }
}
