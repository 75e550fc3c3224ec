/// An episode's transcript: its cues in the order the file gives them, and the format it was read
/// from (which says how much to trust its times: a `.text` transcript has none).
public struct Transcript: Sendable, Equatable, Codable {
    public var cues: [TranscriptCue]
    public var format: TranscriptFormat

    public init(cues: [TranscriptCue], format: TranscriptFormat) {
        self.cues = cues
        self.format = format
    }

    /// The transcript in `bytes`, read as `format` says.
    /// - Throws: `TranscriptProblem` when the bytes are not a transcript in that format, or are
    ///   larger than `TranscriptProblem.maximumBytes` or hold more than `.maximumCues` cues.
    public init(_ bytes: [UInt8], format: TranscriptFormat) throws(TranscriptProblem) {
        try self.init(bytes, format: format, maximumCues: TranscriptProblem.maximumCues)
    }

    /// As `init(_:format:)`, with another cap on the cues (tests reach it with a small file).
    init(_ bytes: [UInt8], format: TranscriptFormat, maximumCues: Int) throws(TranscriptProblem) {
        guard bytes.count <= TranscriptProblem.maximumBytes else {
            throw TranscriptProblem(format, "it is larger than \(TranscriptProblem.maximumBytes / (1 << 20)) MiB")
        }
        let cues: [TranscriptCue] =
            switch format {
            case .json: try JSONTranscript.cues(bytes, maximumCues: maximumCues)
            case .webVTT: try WebVTT.cues(bytes, maximumCues: maximumCues)
            case .srt: try SubRip.cues(bytes, maximumCues: maximumCues)
            case .html: try HTMLTranscript.cues(bytes, maximumCues: maximumCues)
            case .text: try PlainTextTranscript.cues(bytes, maximumCues: maximumCues)
            }
        self.init(cues: cues, format: format)
    }
}
