import Foundation
import Strings
import Testing

struct Windows1252Tests {
    /// Every byte Windows-1252 defines reads as Foundation's own decoder reads it.
    @Test func everyDefinedByteMatchesFoundation() throws {
        let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        for byte in UInt8.min...UInt8.max where !undefined.contains(byte) {
            let reference = try #require(String(bytes: [byte], encoding: .windowsCP1252))
            #expect(Windows1252.decode([byte]) == reference, "byte \(byte)")
        }
        #expect(Windows1252.decode([0x93, 0x43, 0x61, 0x66, 0xE9, 0x94, 0x81]) == "\u{201C}Café\u{201D}\u{81}")
    }
}
