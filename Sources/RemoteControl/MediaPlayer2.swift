import CMPRIS
import Dispatch

/// What a desktop's media controls (MPRIS: media keys, lock screens, `playerctl`) ask of the
/// player.
public enum MediaControl: Equatable, Sendable {
    case play, pause, playPause, stop, next, previous, quit
    /// Relative, in microseconds.
    case seek(by: Int64)
    /// Absolute, in microseconds.
    case setPosition(Int64)
    /// Percent.
    case volume(Int)
}

/// What the media controls show.
public struct MediaState: Equatable, Sendable {
    public enum Status: String, Sendable {
        case playing = "Playing"
        case paused = "Paused"
        case stopped = "Stopped"
    }

    public var status: Status
    /// Names the episode (an object path is made from it).
    public var trackNumber: Int
    public var title: String
    public var album: String?
    public var artist: String?
    public var url: String?
    public var artURL: String?
    /// Microseconds, when known.
    public var length: Int64?
    /// Percent.
    public var volume: Int
    public var canGoNext: Bool
    public var canGoPrevious: Bool

    public init(
        status: Status, trackNumber: Int, title: String, album: String?, artist: String? = nil, url: String?,
        artURL: String? = nil, length: Int64?, volume: Int, canGoNext: Bool, canGoPrevious: Bool
    ) {
        self.status = status
        self.trackNumber = trackNumber
        self.title = title
        self.album = album
        self.artist = artist
        self.url = url
        self.artURL = artURL
        self.length = length
        self.volume = volume
        self.canGoNext = canGoNext
        self.canGoPrevious = canGoPrevious
    }

    var trackID: String { "/org/podcli/episode/\(trackNumber)" }
}

/// The player on the session bus as org.mpris.MediaPlayer2.podcli, through a C server
/// (`CMPRIS`: the vtables and sd-bus's variadic calls). One owner of it; the bus is served on a
/// thread of its own, and the state is handed over under the server's lock.
public final class MediaPlayer2: @unchecked Sendable {
    // @unchecked: the C server guards its state with its own mutex; the bus is touched only by
    // the thread `start` makes.
    private let server: OpaquePointer
    private let onControl: @Sendable (MediaControl) -> Void

    /// Connects to the session bus (or `address`); nil when there is none: media controls are
    /// then simply off.
    public init?(address: String? = nil, onControl: @escaping @Sendable (MediaControl) -> Void) {
        self.onControl = onControl
        // The C side keeps this pointer for as long as the process lives (the server is never
        // freed: it serves until exit), so an unbalanced retain is right.
        let context = Unmanaged.passRetained(Box(onControl)).toOpaque()
        let handler: cmpris_command_handler = { context, command, argument in
            guard let context, let command else { return }
            let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
            if let control = MediaPlayer2.control(named: String(cString: command), argument: argument) {
                box.onControl(control)
            }
        }
        guard let server = cmpris_new(address, handler, context) else {
            Unmanaged<Box>.fromOpaque(context).release()
            return nil
        }
        self.server = server
    }

    public func start() {
        // A queue of its own gets a thread of its own, which it may block for good.
        DispatchQueue(label: "podcli.mpris").async { [self] in cmpris_run(server) }
    }

    public func show(_ state: MediaState) {
        state.status.rawValue.withCString { status in
            state.trackID.withCString { trackID in
                state.title.withCString { title in
                    withOptionalCString(state.album) { album in
                        withOptionalCString(state.artist) { artist in
                            withOptionalCString(state.url) { url in
                                withOptionalCString(state.artURL) { artURL in
                                    var c = cmpris_state(
                                        status: status, track_id: trackID, title: title, album: album, artist: artist,
                                        url: url, art_url: artURL, length: state.length ?? -1,
                                        volume: Double(state.volume) / 100, can_go_next: state.canGoNext ? 1 : 0,
                                        can_go_previous: state.canGoPrevious ? 1 : 0)
                                    cmpris_set_state(server, &c)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The position, in microseconds (read when asked, never announced).
    public func setPosition(_ microseconds: Int64) { cmpris_set_position(server, microseconds) }

    /// Announces a jump (the Seeked signal).
    public func seeked(to microseconds: Int64) { cmpris_seeked(server, microseconds) }

    static func control(named command: String, argument: Int64) -> MediaControl? {
        switch command {
        case "Play": return .play
        case "Pause": return .pause
        case "PlayPause": return .playPause
        case "Stop": return .stop
        case "Next": return .next
        case "Previous": return .previous
        case "Quit": return .quit
        case "Seek": return .seek(by: argument)
        case "SetPosition": return .setPosition(argument)
        case "Volume": return .volume(Int(argument))
        default: return nil
        }
    }

    private final class Box: Sendable {
        let onControl: @Sendable (MediaControl) -> Void
        init(_ onControl: @escaping @Sendable (MediaControl) -> Void) { self.onControl = onControl }
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
