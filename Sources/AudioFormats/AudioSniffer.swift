/// Decides from its first bytes what a body is: which audio container, or, when it is not
/// audio, what it is instead (a captive portal's page, an error document, an image), so such a
/// body never becomes an "episode" and the message can say what came.
public enum AudioSniffer {
    /// How many leading bytes the verdict needs at most.
    public static let windowSize = 16 * 1024

    public enum Verdict: Equatable, Sendable {
        case audio(AudioContainer)
        /// Not audio: what the body is, in a user's words ("an HTML page").
        case notAudio(String)

        public var isAudio: Bool {
            if case .audio = self { return true }
            return false
        }
    }

    /// - `ID3` (an ID3v2 tag): audio, the container of what follows the tag when the window
    ///   reaches past it, else MPEG (what a tag is found in);
    /// - `fLaC`, `OggS` (the codec from the first packet), an MP4 `ftyp` box;
    /// - two consecutive MPEG audio or ADTS frame headers (one frame apart) within the window:
    ///   real files sometimes carry junk before the first frame, while a lone 0xFFF sync in text
    ///   is chance. A body shorter than the window may hold a single frame.
    public static func verdict(_ bytes: [UInt8]) -> Verdict {
        if bytes.isEmpty { return .notAudio("the body is empty") }
        if let tagEnd = ID3v2Header(bytes)?.end {
            if tagEnd < bytes.count, case .audio(let container) = verdict(Array(bytes[tagEnd...])) {
                return .audio(container)
            }
            return .audio(.mpeg(layer: nil))
        }
        if let container = signature(bytes) ?? frames(bytes) { return .audio(container) }
        return .notAudio(BodyDescription.describe(bytes))
    }

    /// The first byte after whitespace and a byte-order mark is '<'.
    public static func looksLikeMarkup(_ bytes: [UInt8]) -> Bool { BodyDescription.looksLikeMarkup(bytes) }

    /// Containers that begin with a signature.
    static func signature(_ bytes: [UInt8]) -> AudioContainer? {
        if bytes.starts(with: Array("fLaC".utf8)) { return .flac }
        if bytes.starts(with: Array("OggS".utf8)) { return .ogg(OggPage.firstCodec(bytes)) }
        if bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) { return .mp4 }
        return nil
    }

    /// MPEG audio or ADTS frames, found by a frame header that another follows.
    static func frames(_ bytes: [UInt8]) -> AudioContainer? {
        var offset = 0
        while offset + 4 <= bytes.count {
            if let header = MPEGFrameHeader(bytes, at: offset) {
                if follows(offset + header.length, in: bytes)
                    || MPEGFrameHeader(bytes, at: offset + header.length) != nil
                {
                    return .mpeg(layer: header.layer)
                }
            } else if let header = ADTSHeader(bytes, at: offset) {
                if follows(offset + header.length, in: bytes) || ADTSHeader(bytes, at: offset + header.length) != nil {
                    return .adts
                }
            }
            offset += 1
        }
        return nil
    }

    /// A frame that ends at or past the end of a body shorter than the window: a short file, one
    /// frame (a single 24 ms MP2 frame is a stream libmpg123 plays).
    private static func follows(_ next: Int, in bytes: [UInt8]) -> Bool {
        next + 4 > bytes.count && next <= bytes.count && bytes.count < windowSize
    }
}
