import Testing

@testable import Downloads

@Suite struct FileNameTests {
    @Test(arguments: [
        ("../../etc/passwd", "passwd"),
        ("..", ""),
        (".hidden.mp3", "hidden.mp3"),
        ("a\\b\\c.mp3", "c.mp3"),
        ("bad\u{0}\u{7}name.mp3", "badname.mp3"),
        ("  spaced.mp3 ", "spaced.mp3"),
        ("episode.mp3.part", "episode.mp3"),
        // Never a name podcli keeps beside the audio: a partial, a hidden file, the old artwork,
        // the transcript.
        ("x.part.part", "x"),
        ("x.PART", "x"),
        ("x.part. .part", "x"),
        (".part", "part"),
        ("x.mp3...", "x.mp3"),
        ("..artwork.jpg", "audio-artwork.jpg"),
        ("Artwork.JPG", "audio-Artwork.JPG"),
        (".artwork.jpg", "audio-artwork.jpg"),
        ("Transcript.JSON", "audio-Transcript.JSON"),
        ("Épisode ☕.mp3", "Épisode ☕.mp3"),
    ])
    func sanitizeKeepsOnlyASafeLastComponent(raw: String, expected: String) {
        #expect(FileName.sanitize(raw) == expected)
    }

    @Test func longNamesAreBoundedAndKeepTheirExtension() {
        let name = FileName.sanitize(String(repeating: "é", count: 300) + ".mp3")
        #expect(name.utf8.count <= FileName.maxLength)
        #expect(name.hasSuffix(".mp3"))
    }

    @Test func theNameComesFromTheDispositionThenTheURL() {
        #expect(FileName.forDownload(disposition: "show.mp3", url: "http://h/x/y.mp3", mediaType: nil) == "show.mp3")
        #expect(
            FileName.forDownload(disposition: nil, url: "http://h/x/ep%2012.mp3?t=1", mediaType: nil) == "ep 12.mp3")
        #expect(
            FileName.forDownload(disposition: nil, url: "http://h/dl/12345", mediaType: "audio/mpeg") == "12345.mp3")
        #expect(FileName.forDownload(disposition: nil, url: "http://h/", mediaType: nil) == FileName.fallback)
        #expect(FileName.forDownload(disposition: "../..", url: "http://h/", mediaType: nil) == FileName.fallback)
    }
}
