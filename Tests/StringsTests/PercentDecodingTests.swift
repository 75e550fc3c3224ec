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

/// One URL segment or user name escaped: only the unreserved characters stay as they are.
@Suite struct PercentEncodingTests {
    @Test func allButUnreservedCharactersAreEscapedAndDecodeBack() {
        #expect("podcli-laptop_1.x~".addingPercentEscapesToAllButUnreserved() == "podcli-laptop_1.x~")
        #expect("a@b c/d:é".addingPercentEscapesToAllButUnreserved() == "a%40b%20c%2Fd%3A%C3%A9")
        let text = "p:w@?#/ü"
        #expect(text.addingPercentEscapesToAllButUnreserved().removingPercentEscapes() == text)
    }
}
