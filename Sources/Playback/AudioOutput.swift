/// Where decoded PCM goes: a sound device, opened for one `AudioFormat`.
///
/// The contract the player relies on (after mpv's `ao` drivers):
/// - `write` never waits: it takes what fits now and says how many frames it accepted (the rest
///   is written next time), how long until the device will take more (a real device paces
///   playback this way: the player waits for that on its command queue, so a command is carried
///   out at once), and whether the system suspended the device meanwhile (it has been resumed).
/// - Sound starts once a little has been written (a period, not a whole buffer): within about
///   50 ms of the first write after opening, a seek or a resume that dropped the buffer.
/// - `pause` stops the sound now. A device that cannot hold its buffer drops it and says how
///   many frames were never heard, so the player can decode them again: no gap, no repeat.
/// - `discard` forgets what is buffered (for a seek); the next `write` starts playing again.
/// - `unplayedFrames` is how far behind the last written frame the listener is.
public protocol AudioOutput: AnyObject {
    var format: AudioFormat { get }
    /// The device's name, as the user would give it to `--device`.
    var deviceName: String { get }
    func write(_ pcm: UnsafeRawBufferPointer) throws(OutputError) -> WriteResult
    /// What a write would take now, so no more is made than the device takes (what waits
    /// unwritten was made at the old speed and volume).
    func room() throws(OutputError) -> DeviceRoom
    func pause() throws(OutputError) -> PauseEffect
    func resume() throws(OutputError)
    func discard()
    /// Waits until everything written has been played.
    func drain()
    var unplayedFrames: Int { get }
}

/// What one `AudioOutput.write` did.
public struct WriteResult: Equatable, Sendable {
    /// Frames accepted, from the start of what was given.
    public var frames: Int
    /// The system suspended the device meanwhile; it has been resumed.
    public var suspended: Bool
    /// Seconds until the device will take more of what was not accepted (0: all was).
    public var readyIn: Double

    public init(frames: Int, suspended: Bool = false, readyIn: Double = 0) {
        self.frames = frames
        self.suspended = suspended
        self.readyIn = readyIn
    }
}

/// What `AudioOutput.room` found.
public struct DeviceRoom: Equatable, Sendable {
    /// Frames a write would take now (0: none yet).
    public var frames: Int
    /// With none, seconds until there will be.
    public var readyIn: Double

    public init(frames: Int, readyIn: Double = 0) {
        self.frames = frames
        self.readyIn = readyIn
    }
}

/// What `AudioOutput.pause` did with the frames still buffered.
public enum PauseEffect: Equatable, Sendable {
    /// The device holds them and plays them on resume.
    case held
    /// They were dropped: the last `count` frames written were never heard.
    case dropped(count: Int)
}

/// Why a sound device failed, worded so a user can act on it.
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device does not exist (no sound card, or an unknown name).
    case noDevice(name: String, reason: String)
    /// Another program holds the device.
    case busy(name: String)
    /// The device cannot play this rate or channel count.
    case unsupportedFormat(name: String, format: AudioFormat, reason: String)
    /// The device stopped working while playing (unplugged, its server gone).
    case deviceLost(name: String, reason: String)

    public var description: String {
        switch self {
        case .noDevice(let name, let reason):
            return "no sound device: ALSA cannot open '\(name)' (\(reason)); choose one with --device NAME, "
                + "PODCLI_DEVICE or 'device = NAME' in the config ('--device null' plays silently)"
        case .busy(let name):
            return "the sound device '\(name)' is busy: another program is using it"
        case .unsupportedFormat(let name, let format, let reason):
            return
                "the sound device '\(name)' cannot play \(format.sampleRate) Hz, \(format.channels) channel(s): \(reason)"
        case .deviceLost(let name, let reason):
            return "the sound device '\(name)' stopped working: \(reason)"
        }
    }
}

/// The sound device a session plays on, by name: opened for the format at hand, kept while the
/// format stays the same, let go when it is lost, and opened again by name (so on whatever the
/// name means by then: `default` follows the system) on the next write.
public final class AudioDevice {
    public let name: String
    private let open: (String, AudioFormat) throws(OutputError) -> any AudioOutput
    private var current: (any AudioOutput)?
    /// Told of every output opened (the session watches the card's jacks).
    public var onOpen: (any AudioOutput) -> Void = { _ in }
    /// Whether a device was ever opened: failing to open one again is then a lost device, not a
    /// missing one.
    public private(set) var wasOpened = false

    /// - Parameter open: how to open `name` for a format (ALSA's, unless a test brings its own).
    public init(
        name: String,
        open: @escaping (String, AudioFormat) throws(OutputError) -> any AudioOutput = {
            (name, format) throws(OutputError) in
            try ALSAOutput(device: name, format: format)
        }
    ) {
        self.name = name
        self.open = open
    }

    public func output(for format: AudioFormat) throws(OutputError) -> any AudioOutput {
        if let current, current.format == format { return current }
        current = nil
        let opened = try open(name, format)
        current = opened
        wasOpened = true
        onOpen(opened)
        return opened
    }

    /// Lets the device go (it was lost).
    public func release() { current = nil }
}
