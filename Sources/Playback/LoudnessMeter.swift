import CEBUR128

#if canImport(Glibc)
    import Glibc
#endif

/// One owner of a libebur128 state: PCM in, integrated loudness and true peak out. Every C
/// result is checked here. Not `Sendable`: one meter, one thread.
final class LoudnessMeter {
    /// What a meter is for: a whole file once (loudness and true peak), or what plays, asked for
    /// its loudness so far at every chunk (`LoudnessNormalizer`, an episode not measured yet).
    enum Use {
        case wholeFile, whilePlaying
    }

    private var state: UnsafeMutablePointer<ebur128_state>?
    private let channels: Int

    /// Fails (nil) for a format libebur128 refuses (no channels, a rate it cannot filter) or
    /// when it cannot allocate.
    init?(format: AudioFormat, for use: Use = .wholeFile) {
        // While playing, histogram mode: the loudness so far costs the same however long it has
        // played, and memory stays flat (not every block kept); no true peak.
        let mode = Int32(
            EBUR128_MODE_I.rawValue
                | (use == .wholeFile ? EBUR128_MODE_TRUE_PEAK.rawValue : EBUR128_MODE_HISTOGRAM.rawValue))
        guard format.channels > 0, format.sampleRate > 0,
            let state = ebur128_init(UInt32(format.channels), UInt(format.sampleRate), mode)
        else { return nil }
        self.state = state
        channels = format.channels
    }

    deinit { ebur128_destroy(&state) }

    /// Adds `frames` interleaved 16-bit frames; false if libebur128 could not take them.
    func add(_ samples: UnsafePointer<Int16>, frames: Int) -> Bool {
        ebur128_add_frames_short(state, samples, frames) == EBUR128_SUCCESS.rawValue
    }

    /// What was added so far; nil when it has no integrated loudness (silence only, or shorter
    /// than one 400 ms block: libebur128 says -inf) or libebur128 fails.
    var loudness: Loudness? {
        guard let integrated = integratedLUFS else { return nil }
        var peak = 0.0
        for channel in 0..<channels {
            var channelPeak = 0.0
            guard ebur128_true_peak(state, UInt32(channel), &channelPeak) == EBUR128_SUCCESS.rawValue else {
                return nil
            }
            peak = max(peak, channelPeak)
        }
        // Audio with a loudness has a peak above zero: its log is finite.
        return Loudness(integratedLUFS: integrated, truePeakDBTP: 20 * log10(peak))
    }

    /// The integrated loudness of what was added so far, LUFS; nil when it has none (silence
    /// only, or shorter than one 400 ms block) or libebur128 fails.
    var integratedLUFS: Double? {
        var integrated = 0.0
        guard ebur128_loudness_global(state, &integrated) == EBUR128_SUCCESS.rawValue, integrated.isFinite else {
            return nil
        }
        return integrated
    }
}
