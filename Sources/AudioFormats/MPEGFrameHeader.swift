/// The four bytes that begin an MPEG audio frame (ISO 11172-3, 13818-3 and MPEG 2.5).
struct MPEGFrameHeader {
    /// 1, 2 or 3.
    let layer: Int
    /// The frame's length in bytes, header included.
    let length: Int

    /// The header at `offset`, or nil when the four bytes there are not a valid one.
    init?(_ bytes: [UInt8], at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xE0 == 0xE0 else {
            return nil
        }
        let version = (bytes[offset + 1] >> 3) & 0x3  // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
        let layerBits = (bytes[offset + 1] >> 1) & 0x3  // 1: III, 2: II, 3: I
        let bitrateIndex = Int(bytes[offset + 2] >> 4)
        let rateIndex = Int((bytes[offset + 2] >> 2) & 0x3)
        let padding = Int((bytes[offset + 2] >> 1) & 0x1)
        guard version != 1, layerBits != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let kilobits: [Int]
        switch (mpeg1, layerBits) {
        case (true, 3): kilobits = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): kilobits = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): kilobits = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 3): kilobits = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): kilobits = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let baseRates = [44_100, 48_000, 32_000]
        let sampleRate = baseRates[rateIndex] >> (version == 3 ? 0 : version == 2 ? 1 : 2)
        let bitrate = kilobits[bitrateIndex] * 1000
        layer = 4 - Int(layerBits)
        if layer == 1 {
            length = (12 * bitrate / sampleRate + padding) * 4
        } else {
            let samplesPerByte = (layer == 3 && !mpeg1) ? 72 : 144
            length = samplesPerByte * bitrate / sampleRate + padding
        }
    }
}
