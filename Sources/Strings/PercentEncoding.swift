extension StringProtocol {
    /// The text with every byte of its UTF-8 but RFC 3986's unreserved characters (letters,
    /// digits, `-._~`) as a `%XX` escape: safe as one segment of a URL's path or its user info.
    public func addingPercentEscapesToAllButUnreserved() -> String {
        var result = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
            }
        }
        return result
    }
}
