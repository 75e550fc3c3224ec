import CEBUR128

/// One owner of a libebur128 state that measures what plays, as it plays: the integrated
/// loudness of everything added so far (an episode no one measured yet). Histogram mode, so
/// memory and the cost of asking stay the same however long it plays. Not `Sendable`: one
/// tracker, one thread.
final class LoudnessTracker {
    private var state: UnsafeMutablePointer<ebur128_state>?
    /// Frames added so far.
    private(set) var frames = 0

    /// Fails (nil) for a format libebur128 refuses (no channels, a rate it cannot filter) or
    /// when it cannot allocate.
    init?(format: AudioFormat) {
        let mode = EBUR128_MODE_I.rawValue | EBUR128_MODE_HISTOGRAM.rawValue
        guard format.channels > 0, format.sampleRate > 0,
            let state = ebur128_init(UInt32(format.channels), UInt(format.sampleRate), Int32(mode))
        else { return nil }
        self.state = state
    }

    deinit { ebur128_destroy(&state) }

    /// Adds `count` interleaved 16-bit frames; a chunk libebur128 cannot take is left out.
    func add(_ samples: UnsafePointer<Int16>, frames count: Int) {
        guard ebur128_add_frames_short(state, samples, count) == EBUR128_SUCCESS.rawValue else { return }
        frames += count
    }

    /// The integrated loudness so far, LUFS; nil while there is none (only silence, or less than
    /// one 400 ms block: libebur128 says -inf) or libebur128 fails.
    var integratedLUFS: Double? {
        var integrated = 0.0
        guard ebur128_loudness_global(state, &integrated) == EBUR128_SUCCESS.rawValue, integrated.isFinite else {
            return nil
        }
        return integrated
    }
}
