import Strings
import Testing

@Suite struct HexDigitTests {
    @Test func everyByteIsReadAsItsHexadecimalValueOrNone() {
        for byte in UInt8.min...UInt8.max {
            let expected = UInt8(String(UnicodeScalar(byte)), radix: 16)
            #expect(HexDigit.value(byte) == expected, "\(byte)")
        }
    }
}
