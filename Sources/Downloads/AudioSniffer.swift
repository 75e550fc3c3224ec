/// Decides from its first bytes whether a body is MPEG audio, so a captive-portal page or an
/// error document never becomes an "episode".
enum AudioSniffer {
    /// How many leading bytes the verdict needs at most.
    static let windowSize = 16 * 1024

    enum Verdict: Equatable {
        case audio
        case notAudio(String)
    }

    /// Audio starts with an ID3v2 tag, or has two consecutive MPEG audio frame headers (one frame
    /// apart) in its first `windowSize` bytes: real files sometimes carry junk before the first
    /// frame, while a lone 0xFFE sync in text or HTML is chance.
    static func verdict(_ bytes: [UInt8]) -> Verdict {
        if bytes.count >= 3 && bytes[0] == 0x49 && bytes[1] == 0x44 && bytes[2] == 0x33 { return .audio }  // "ID3"
        if bytes.isEmpty { return .notAudio("the body is empty") }
        var offset = 0
        while offset + 4 <= bytes.count {
            if let length = frameLength(bytes, at: offset) {
                let next = offset + length
                if next + 4 > bytes.count && bytes.count < windowSize { return .audio }  // a short file, one frame
                if frameLength(bytes, at: next) != nil { return .audio }
            }
            offset += 1
        }
        return .notAudio(looksLikeMarkup(bytes) ? "an HTML or XML page" : "no MPEG audio frame at its start")
    }

    /// The length in bytes of the MPEG audio frame whose header is at `offset`, or nil when the
    /// four bytes there are not a valid header.
    static func frameLength(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xE0 == 0xE0 else { return nil }
        let version = (bytes[offset + 1] >> 3) & 0x3  // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
        let layer = (bytes[offset + 1] >> 1) & 0x3  // 1: III, 2: II, 3: I
        let bitrateIndex = Int(bytes[offset + 2] >> 4)
        let rateIndex = Int((bytes[offset + 2] >> 2) & 0x3)
        let padding = Int((bytes[offset + 2] >> 1) & 0x1)
        guard version != 1, layer != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let kilobits: [Int]
        switch (mpeg1, layer) {
        case (true, 3): kilobits = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): kilobits = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): kilobits = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 3): kilobits = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): kilobits = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let baseRates = [44_100, 48_000, 32_000]
        let sampleRate = baseRates[rateIndex] >> (version == 3 ? 0 : version == 2 ? 1 : 2)
        let bitrate = kilobits[bitrateIndex] * 1000
        if layer == 3 { return (12 * bitrate / sampleRate + padding) * 4 }
        let samplesPerByte = (layer == 1 && !mpeg1) ? 72 : 144
        return samplesPerByte * bitrate / sampleRate + padding
    }

    /// The first byte after whitespace and a byte-order mark is '<'.
    static func looksLikeMarkup(_ bytes: [UInt8]) -> Bool {
        let start = bytes.drop {
            $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
        }
        return start.first == UInt8(ascii: "<")
    }
}
