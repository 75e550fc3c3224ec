/// Where the listener is in the media, computed from what was written to the device (after mpv's
/// player core): filters between the decoder and the device may turn N media frames into any
/// number of device frames, so a frame written is not a frame of media.
///
/// For every write it records which media frame the device frames written so far reach, as a
/// short list of segments (device frames written → media frames written); between two segment
/// ends the media advances evenly. The frame heard is the media frame at (device frames written −
/// what the device still holds). Segments the device has played are forgotten, and segments of
/// the same ratio are one, so memory stays constant.
public struct MediaClock: Equatable, Sendable {
    /// The end of a write (or of several writes of the same ratio): device and media frames.
    struct Point: Equatable, Sendable {
        var device: Int
        var media: Int
    }

    /// Where the oldest segment still remembered starts.
    private var origin: Point
    /// Whether writing went on from elsewhere at the origin (a seek) while the device still held
    /// frames from before: those are heard first, and count as the origin's media frame.
    private var heldFramesPrecedeTheOrigin = false
    /// Ends of the segments after `origin`, oldest first.
    private var ends: [Point] = []
    /// What the device held just after the last write: nothing before that can be taken back.
    public private(set) var heldAfterLastWrite = 0
    /// Media frames played so far, wherever seeks took the decoder: written to the device, less
    /// what it dropped unheard (a pause that drops, a seek, a lost device). What `--for` counts.
    public private(set) var mediaFramesPlayed = 0
    /// Device frames played so far, counted the same way: wall time at the device's rate.
    public private(set) var deviceFramesPlayed = 0

    /// Segments remembered at most: beyond, the two oldest are made one (the position within
    /// them is then interpolated over both).
    static let maxSegments = 32

    /// A clock whose first write will start at `mediaFrame`.
    public init(startingAt mediaFrame: Int) {
        origin = Point(device: 0, media: mediaFrame)
    }

    /// Device frames written since the clock began.
    public var deviceFramesWritten: Int { (ends.last ?? origin).device }
    /// The media frame just after the last one written.
    public var mediaFrameWritten: Int { (ends.last ?? origin).media }
    /// Segments remembered now.
    var segmentCount: Int { ends.count }

    /// The media frame heard while the device still holds `unplayed` of the frames written
    /// (never before the start of the media).
    public func position(deviceHolding unplayed: Int) -> Int {
        max(0, mediaFrame(atDevice: deviceFramesWritten - unplayed))
    }

    /// Records a write of `deviceFrames` that carried the media `mediaFrames` further, after which
    /// the device holds `unplayed` frames: what it played before those is forgotten.
    public mutating func wrote(deviceFrames: Int, mediaFrames: Int, deviceHolding unplayed: Int) {
        mediaFramesPlayed += mediaFrames
        deviceFramesPlayed += deviceFrames
        let end = Point(device: deviceFramesWritten + deviceFrames, media: mediaFrameWritten + mediaFrames)
        if deviceFrames > 0 {
            let start = ends.count > 1 ? ends[ends.count - 2] : origin
            if let last = ends.last,
                (last.media - start.media) * deviceFrames == mediaFrames * (last.device - start.device)
            {
                ends[ends.count - 1] = end
            } else {
                ends.append(end)
            }
            if ends.count > Self.maxSegments { ends.removeFirst() }
        }
        heldAfterLastWrite = unplayed
        let heard = end.device - unplayed
        while let first = ends.first, first.device <= heard {
            origin = ends.removeFirst()
            heldFramesPrecedeTheOrigin = false
        }
    }

    /// The device forgot the last `deviceFrames` written, unheard: they no longer count as played.
    /// Returns the media frame they began at, where decoding must start again.
    public mutating func dropped(deviceFrames: Int) -> Int {
        let target = deviceFramesWritten - deviceFrames
        let media = mediaFrame(atDevice: target)
        mediaFramesPlayed -= mediaFrameWritten - media
        deviceFramesPlayed -= deviceFrames
        ends.removeAll { $0.device >= target }
        if target <= origin.device {
            origin = Point(device: target, media: media)
            heldFramesPrecedeTheOrigin = false
        } else {
            ends.append(Point(device: target, media: media))
        }
        heldAfterLastWrite = 0
        return media
    }

    /// Writing goes on from `mediaFrame` (a seek, a stop). What the device still holds from
    /// before is heard first, as `mediaFrame`: the listener is taken there at once, and a seek
    /// relative to the position counts from there. The totals stay.
    public mutating func restart(at mediaFrame: Int) {
        origin = Point(device: deviceFramesWritten, media: mediaFrame)
        ends.removeAll()
        heldAfterLastWrite = 0
        heldFramesPrecedeTheOrigin = true
    }

    /// The media frame device frame `device` reaches. Before the oldest segment remembered (a
    /// device that says it holds more than that), one media frame a device frame, as before
    /// there was a clock; but frames held from before a restart are heard as the origin's.
    private func mediaFrame(atDevice device: Int) -> Int {
        var start = origin
        guard device > start.device else {
            return heldFramesPrecedeTheOrigin ? origin.media : origin.media - (origin.device - device)
        }
        for end in ends {
            if device <= end.device {
                return start.media + (end.media - start.media) * (device - start.device) / (end.device - start.device)
            }
            start = end
        }
        return start.media
    }
}
