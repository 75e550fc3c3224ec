import FoundationEssentials
import Strings

/// Episode UUIDs are version 7 (RFC 9562): a millisecond timestamp, then random bits. New ones sort
/// after old ones, so inserting thousands of episodes appends to the `uuid` index instead of
/// touching a random page of it per row (a third as many pages written by a large subscription),
/// and episode directories list in the order they were made.
///
/// Stored as their 16 bytes (schema 7; 36 as text, in the row and again in the index), shown and
/// used as directory names in their canonical text form.
enum EpisodeUUID {
    /// A new UUID, as stored.
    static func makeBytes(at date: Date = Date()) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        // 48 bits of time, version 7, 12 random bits; then the variant and 62 random bits.
        let high = milliseconds << 16 | 0x7000 | (generator.next() & 0x0FFF)
        let low = 0x8000_0000_0000_0000 | (generator.next() >> 2)
        return [high, low].flatMap { word in (0..<8).reversed().map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
    }

    /// The canonical form (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lower case) of 16 bytes.
    static func text(of bytes: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (position, byte) in bytes.enumerated() {
            if position == 4 || position == 6 || position == 8 || position == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hexDigit(byte >> 4))
            text.append(hexDigit(byte & 0xF))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 16 bytes of a UUID in canonical form, nil for any other text (a row written by hand).
    static func bytes(of text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36, [8, 13, 18, 23].allSatisfy({ utf8[$0] == UInt8(ascii: "-") }) else { return nil }
        let digits = utf8.filter { $0 != UInt8(ascii: "-") }.map(HexDigit.value)
        guard digits.count == 32, digits.allSatisfy({ $0 != nil }) else { return nil }
        return stride(from: 0, to: 32, by: 2).map { digits[$0]! << 4 | digits[$0 + 1]! }
    }

    /// The stored UUIDs that begin with the hexadecimal digits `prefix` (dashes ignored), as the
    /// bounds of a range of the `uuid` index; nil when `prefix` is not such digits.
    static func range(ofPrefix prefix: String) -> (lowest: SQLValue, highest: SQLValue)? {
        let digits = prefix.utf8.filter { $0 != UInt8(ascii: "-") }.map(HexDigit.value)
        guard !digits.isEmpty, digits.count <= 32, digits.allSatisfy({ $0 != nil }) else { return nil }
        func bound(padding: UInt8) -> SQLValue {
            let all = digits.map { $0! } + Array(repeating: padding, count: 32 - digits.count)
            return .blob(stride(from: 0, to: 32, by: 2).map { all[$0] << 4 | all[$0 + 1] })
        }
        return (bound(padding: 0), bound(padding: 0xF))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
