/// Base64 (RFC 4648) decoding, for METADATA_BLOCK_PICTURE comments; whitespace is skipped.
enum Base64 {
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        return table
    }()

    /// nil when `text` holds a byte that is not base64.
    static func decode(_ text: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            if character == UInt8(ascii: "=") { break }
            if character == 0x20 || character == 0x0A || character == 0x0D || character == 0x09 { continue }
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
