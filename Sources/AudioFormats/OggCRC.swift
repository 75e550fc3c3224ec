/// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, initial value 0, no final XOR.
enum OggCRC {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 { value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc: UInt32 = 0
            for byte in buffer { crc = (crc << 8) ^ table[Int(UInt8(crc >> 24) ^ byte)] }
            return crc
        }
    }
}
