/// The seven or nine bytes that begin an ADTS frame of raw AAC (ISO 14496-3, 1.A.2).
struct ADTSHeader {
    /// The frame's length in bytes, header included.
    let length: Int

    init?(_ bytes: [UInt8], at offset: Int) {
        // 12 sync bits, then the layer (always 0); the sampling frequency index is below 13.
        guard offset >= 0, offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF6 == 0xF0,
            (bytes[offset + 2] >> 2) & 0xF < 13
        else { return nil }
        let length =
            (Int(bytes[offset + 3] & 0x3) << 11) | (Int(bytes[offset + 4]) << 3) | (Int(bytes[offset + 5]) >> 5)
        let headerLength = bytes[offset + 1] & 0x1 == 0 ? 9 : 7
        guard length > headerLength else { return nil }
        self.length = length
    }
}
