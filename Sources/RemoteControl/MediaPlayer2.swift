import CMPRIS
import Synchronization
import Threads

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
    /// The speed asked for (1: as published), as the client wrote it: the player keeps it within
    /// its range.
    case rate(Double)
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
    /// The speed (1: as published).
    public var rate: Double
    public var canGoNext: Bool
    public var canGoPrevious: Bool

    public init(
        status: Status, trackNumber: Int, title: String, album: String?, artist: String? = nil, url: String?,
        artURL: String? = nil, length: Int64?, volume: Int, rate: Double = 1, canGoNext: Bool, canGoPrevious: Bool
    ) {
        self.rate = rate
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
/// thread of its own, which answers from the state handed over under the server's lock (it never
/// waits for the player), and the state is handed over under that lock.
public final class MediaPlayer2: @unchecked Sendable {
    // @unchecked: the C server guards its state with its own mutex; the bus is touched only by
    // the thread `start` makes.
    private let server: OpaquePointer
    private let context: UnsafeMutableRawPointer
    private let thread = Mutex<ServiceThread?>(nil)

    /// Connects to the session bus (or `address`); nil when there is none: media controls are
    /// then simply off.
    public init?(address: String? = nil, onControl: @escaping @Sendable (MediaControl) -> Void) {
        // The C side keeps this pointer until the server is freed (deinit).
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
        self.context = context
    }

    deinit {
        stop()
        cmpris_free(server)
        Unmanaged<Box>.fromOpaque(context).release()
    }

    /// Serves the bus on a thread of its own, until `stop`.
    public func start() {
        let server = server
        // An OpaquePointer is not Sendable; the C server is the thread's alone from here on.
        let address = UInt(bitPattern: server)
        thread.withLock { thread in
            guard thread == nil else { return }
            thread = ServiceThread(name: "podcli.mpris") { stop in
                cmpris_run(OpaquePointer(bitPattern: address), stop.descriptor)
            }
        }
        withExtendedLifetime(server) {}
    }

    /// Ends the bus thread and waits for it.
    public func stop() { thread.withLock { $0 }?.stop() }

    /// Leaves the bus (lets the name go) before the process stops, waiting up to half a second
    /// for it to be done: a stopped process cannot answer, and `playerctl` would wait 25 s for
    /// it; with no name it finds no player at once.
    public func leaveBus() { _ = cmpris_set_present(server, 0, 500) }

    /// Takes the name again (after the process continued).
    public func rejoinBus() { _ = cmpris_set_present(server, 1, 0) }

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
                                        volume: Double(state.volume) / 100, rate: state.rate,
                                        can_go_next: state.canGoNext ? 1 : 0,
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
        case "Rate": return .rate(Double(argument) / 100)
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
