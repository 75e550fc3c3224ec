import Foundation
import Strings
import Testing

@Suite struct URLRepairTests {
    @Test(arguments: [
        ("http://host/my episode.mp3", "http://host/my%20episode.mp3"),
        ("https://host/a b/c?q=x y#f g", "https://host/a%20b/c?q=x%20y#f%20g"),
        ("http://host/épisode 1.mp3", "http://host/%C3%A9pisode%201.mp3"),
        ("http://host/a\"b<c>d[e]f^g`h{i|j}", "http://host/a%22b%3Cc%3Ed%5Be%5Df%5Eg%60h%7Bi%7Cj%7D"),
        ("http://host/100%.mp3?x=%41", "http://host/100%25.mp3?x=%41"),
        ("http://host/a\n\tb\r.mp3", "http://host/ab.mp3"),
        // A relative URL, resolved after repair.
        ("episodes/ep 1.mp3", "episodes/ep%201.mp3"),
    ])
    func encodesWhatAURLCannotHoldAfterTheHost(written: String, repaired: String) throws {
        #expect(URLRepair.encodingIllegalCharacters(written) == repaired)
        // What Foundation's strict parser takes as it is.
        #expect(URLComponents(string: repaired) != nil)
    }

    @Test(arguments: [
        "http://host/plain.mp3?a=1&b=%20#x", "https://user:pw@host:8443/p;q", "data:audio/mpeg;base64,SUQz",
        // The host is not guessed at: a space there stays, and the URL is refused.
        "http://my host/a", "http://[::1]:80/a",
    ])
    func leavesAUsableURLOrAHostAsItIs(url: String) {
        #expect(URLRepair.encodingIllegalCharacters(url) == url)
    }
}
