/// An episode's loudness by EBU R128: what a listener hears as loud, and how near its peaks come to
/// clipping. Measured once from the whole file (`AudioMeasurement`); a playback gain reaches a
/// target loudness from it.
public struct Loudness: Equatable, Sendable {
    /// Integrated (programme) loudness, LUFS.
    public let integratedLUFS: Double
    /// The highest true (inter-sample) peak of any channel, dBTP.
    public let truePeakDBTP: Double

    public init(integratedLUFS: Double, truePeakDBTP: Double) {
        self.integratedLUFS = integratedLUFS
        self.truePeakDBTP = truePeakDBTP
    }
}
