import Foundation
import Strings
import Testing

@Suite struct PercentDecodingTests {
    @Test(arguments: [
        "", "plain", "%41", "%41%42c", "%c3%a9t%C3%A9.mp3", "a+b%20", "%00x", "é%41", "100%", "%4", "%4g", "%zz",
        "%%41", "%FF", "%C3", "%E2%82", "%F0%9F%98%80", "%ED%A0%80", "%C0%AF", "a%2Fb", "%é",
    ])
    func decodesAsFoundationDecodes(text: String) {
        #expect(text.removingPercentEscapes() == text.removingPercentEncoding)
    }
}
