extension UInt32 {
    /// Four bytes of `bytes` at `offset`, least significant first.
    init(littleEndian bytes: [UInt8], at offset: Int) {
        self = bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Four bytes of `bytes` at `offset`, most significant first.
    init(bigEndian bytes: [UInt8], at offset: Int) {
        self = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
