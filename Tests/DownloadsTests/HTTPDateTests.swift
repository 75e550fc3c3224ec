import Foundation
import Testing

@testable import Downloads

@Suite struct HTTPDateTests {
    @Test func readsWhatDateFormatterReadsInHTTPsOwnFormat() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let seconds = Int.random(in: 0...4_102_444_800, using: &generator)
            let text = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
            #expect(HTTPDate.parse(text) == seconds, "\(text)")
        }
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777), ("sun, 06 nov 1994 08:49:37 gmt", 784_111_777),
        ("Sun, 6 Nov 1994 08:49:37 GMT", 784_111_777), ("Thu, 29 Feb 2024 23:59:59 GMT", 1_709_251_199),
    ])
    func readsAnIMFFixdate(text: String, seconds: Int) {
        #expect(HTTPDate.parse(text) == seconds)
    }

    @Test(arguments: [
        "", "soon", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT later", "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT",
        "Son, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Noe 1994 08:49:37 GMT",
    ])
    func refusesAnythingElse(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
