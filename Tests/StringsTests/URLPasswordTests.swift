import Strings
import Testing

/// Passwords in URLs, wherever a URL is in the text printed.
@Suite struct URLPasswordTests {
    @Test func thePasswordIsMaskedAndTheRestKept() {
        #expect(URLPassword.hidden(in: "http://user:pw@host/feed") == "http://user:***@host/feed")
        #expect(
            URLPassword.hidden(in: "#2 x: server answered 404 Not Found for https://u:p%40ss@h:8080/a?b=c@d")
                == "#2 x: server answered 404 Not Found for https://u:***@h:8080/a?b=c@d")
        // An "@" in the password, unencoded: the authority's last "@" ends it.
        #expect(URLPassword.hidden(in: "http://u:a@b@host") == "http://u:***@host")
        // In JSON and OPML, and several in a line.
        #expect(
            URLPassword.hidden(in: #"{"url":"http://a:1@h","feed":"https://b:2@i/x"}"#)
                == #"{"url":"http://a:***@h","feed":"https://b:***@i/x"}"#)
        #expect(URLPassword.hidden(in: #"xmlUrl="http://a:x&amp;y@h/f""#) == #"xmlUrl="http://a:***@h/f""#)
    }

    @Test func textWithoutAPasswordIsLeftAsItIs() {
        for text in [
            "http://user@host/feed", "http://user:@host/", "http://host:8080/a@b", "mail me@example.com",
            "http://host/ then user:pw@other", "", "://", "a://@",
        ] {
            #expect(URLPassword.hidden(in: text) == text)
        }
    }

    /// What goes up to a sync server: the URL with no user name or password left in it.
    @Test func userInfoIsRemovedFromTheAuthorityOnly() {
        #expect(URLPassword.removingUserInfo(from: "https://u:p@host/feed") == "https://host/feed")
        #expect(URLPassword.removingUserInfo(from: "http://u:a@b@host:8080/x?y=1") == "http://host:8080/x?y=1")
        #expect(URLPassword.removingUserInfo(from: "http://user@host") == "http://host")
        for kept in ["https://host/a@b", "https://host/feed?mail=me@example.com", "host/feed", "", "https://h#@x"] {
            #expect(URLPassword.removingUserInfo(from: kept) == kept)
        }
    }
}
