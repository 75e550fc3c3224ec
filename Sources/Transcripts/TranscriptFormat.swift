import Strings

/// The formats a Podcasting 2.0 `podcast:transcript` can be in
/// (https://github.com/Podcastindex-org/podcast-namespace/blob/main/transcripts/transcripts.md),
/// in the order podcli prefers them: the most structured first (JSON and WebVTT name speakers and
/// time every cue, SRT times cues, HTML may time paragraphs, plain text times nothing).
public enum TranscriptFormat: String, Sendable, Codable, CaseIterable, Comparable {
    case json
    case webVTT = "vtt"
    case srt
    case html
    case text

    /// The format a `podcast:transcript`'s `type` (or a server's Content-Type) names; nil for one
    /// podcli cannot read. Parameters (`; charset=utf-8`) and case are ignored.
    public init?(mediaType: String) {
        let essence = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        switch essence.trimmingWhitespace().lowercased() {
        case "application/json": self = .json
        case "text/vtt": self = .webVTT
        case "application/x-subrip", "application/srt", "text/srt", "text/x-srt", "application/x-srt": self = .srt
        case "text/html": self = .html
        case "text/plain": self = .text
        default: return nil
        }
    }

    /// The name a user knows the format by, for messages.
    public var name: String {
        switch self {
        case .json: "JSON"
        case .webVTT: "WebVTT"
        case .srt: "SRT"
        case .html: "HTML"
        case .text: "plain text"
        }
    }

    /// Preferred formats compare lower: `min()` of several is the one to take.
    public static func < (lhs: TranscriptFormat, rhs: TranscriptFormat) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Of several offers of one episode's transcript (a feed item's `podcast:transcript`s), the one
    /// in the most preferred format podcli reads, and that format; the first such offer when several
    /// share it; nil when podcli reads none of them.
    public static func preferred<Offer>(
        of offers: some Sequence<Offer>, mediaType: (Offer) -> String
    ) -> (offer: Offer, format: TranscriptFormat)? {
        var best: (offer: Offer, format: TranscriptFormat)?
        for offer in offers {
            guard let format = TranscriptFormat(mediaType: mediaType(offer)) else { continue }
            if best == nil || format < best!.format { best = (offer, format) }
        }
        return best
    }
}
