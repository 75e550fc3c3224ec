/// How a digest is written: two lowercase hexadecimal digits a byte.
enum Hexadecimal {
    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
