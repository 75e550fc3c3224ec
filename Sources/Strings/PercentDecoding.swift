extension StringProtocol {
    /// The text with every `%XX` escape decoded, as Foundation's `removingPercentEncoding`: nil
    /// when a `%` is not followed by two hexadecimal digits or the decoded bytes are not UTF-8.
    public func removingPercentEscapes() -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(HexDigit.value), let low = iterator.next().flatMap(HexDigit.value)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
