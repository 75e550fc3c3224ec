import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The artwork of what is playing, as a lock screen gets it: from the audio's own cover, else
/// the episode's image, else the podcast's (served by the tests' loopback server), cropped square,
/// cached in the episode's directory, and seen in `podcli status` and by the real `playerctl` on
/// a private session bus. Played in real time on a PulseAudio null sink, paused while looked at.
@Suite(
    .requires(
        PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123"),
        "needs pulseaudio, libasound2-plugins and mpg123"))
struct PlayArtworkTests {
    let library: PlayCommandTests.Library
    let devices: TemporaryDirectory
    let pulse: PulseAudioServer
    let capture: ALSACapture

    init() throws {
        library = try PlayCommandTests.Library()
        devices = try TemporaryDirectory(prefix: "podcli-paced")
        pulse = try PulseAudioServer()
        capture = try ALSACapture(directory: devices.url, pulseAudio: pulse)
    }

    var t: CLITestCase { library.t }

    /// The stereo fixture with `pictures` in its ID3v2 tag.
    static func tone(with pictures: [ID3Tag.Picture]) throws -> Data {
        ID3Tag.tagging(try Data(contentsOf: fixture(PlayCommandTests.stereo)), with: pictures)
    }

    /// Fetches `audio` as an episode of its own; returns its number.
    func download(_ audio: Data) throws -> String {
        let fetch = try t.run(["fetch", try t.source("tone.mp3", data: audio).url, "--json"])
        guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
        return "\((try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any])["id"] as! Int)"
    }

    /// Subscribes to a feed of one episode (the tone, with `embedded` pictures) with the images
    /// given; returns the episode's number.
    func subscribe(
        _ title: String, episodeImage: String?, podcastImage: String?, embedded: [ID3Tag.Picture] = []
    ) throws -> String {
        let audio = try t.source("tone.mp3", data: try Self.tone(with: embedded))
        let image = { (url: String?) in url.map { #"<itunes:image href="\#($0)"/>"# } ?? "" }
        let rss = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
            <title>\(title)</title>\(image(podcastImage))
            <item><title>Tone</title><guid>tone</guid>\(image(episodeImage))
            <enclosure url="\(audio.url)" length="\(audio.data.count)" type="audio/mpeg"/></item>
            </channel></rss>
            """
        let feed = try t.source("feed.xml", data: Data(rss.utf8)).url
        let fetch = try t.run(["fetch", feed, "--download", "all"])
        guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
        let listed = try t.run(["list", title, "--json"])
        return "\((try JSONSerialization.jsonObject(with: listed.stdoutData) as! [[String: Any]])[0]["id"] as! Int)"
    }

    /// Serves an image; returns its URL.
    func serveImage(_ data: Data, named name: String = "cover.png") throws -> String {
        try t.source(name, data: data).url
    }

    func status() throws -> [String: Any] {
        let result = try t.run(["status", "--json"])
        guard result.status == 0 else { throw TestSupportError("status: \(result)") }
        return try JSONSerialization.jsonObject(with: result.stdoutData) as! [String: Any]
    }

    /// Plays episode `id` in real time, pauses it once it sounds, waits for its artwork and
    /// returns it (nil when none came within 5 s); `inspect` looks on while it is paused.
    @discardableResult
    func artwork(
        ofPlaying id: String, environment extra: [String: String] = [:], inspect: (String) throws -> Void = { _ in },
        player: (Int32) throws -> Void = { _ in }
    ) throws -> String? {
        let process = try RunningProcess(
            executable: t.podcli.executableURL,
            arguments: ["--home", t.home.path, "play", id, "--device", ALSACapture.pacedDeviceName],
            environment: t.podcli.childEnvironment(capture.environment.merging(extra) { _, new in new }))
        defer { process.kill(signal: SIGKILL) }
        #expect(waitUntil(timeout: 10) { (try? status()["state"] as? String) == "playing" })
        #expect(try t.run(["pause"]).status == 0)
        var artwork: String?
        _ = waitUntil(timeout: 5) {
            artwork = (try? status())?["artwork"] as? String
            return artwork != nil
        }
        if let artwork { try inspect(artwork) }
        try player(process.pid)
        // The image was decoded by a `render-artwork` child: the player never loaded libgd.
        let maps = try ProcessMaps.read(process.pid)
        #expect(!maps.contains("libgd"))
        #expect(try t.run(["stop"]).status == 0)
        #expect(try process.waitUntilExit().status == 0)
        return artwork
    }

    /// The artwork's size in pixels (from the JPEG's own header) and its mode.
    func inspect(_ path: String) throws -> (width: Int, height: Int, mode: mode_t) {
        let size = try #require(TestImage.jpegSize(try Data(contentsOf: URL(fileURLWithPath: path))))
        var info = stat()
        #expect(stat(path, &info) == 0)
        return (size.width, size.height, info.st_mode & 0o7777)
    }

    func expectedPath(of id: String) throws -> String {
        t.home.path + "/episodes/" + (try t.show(id)["uuid"] as! String) + "/.artwork.jpg"
    }

    static let playerctlPresent = FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl")

    /// The issue's test: a non-square cover embedded in the audio becomes a square file of at
    /// most 600 px in the episode's directory (private: 0600), which `status` reports and
    /// `playerctl` sees as `mpris:artUrl`, a file:// URL.
    @Test(.requires(MessageBus.unavailableReason == nil && playerctlPresent, "needs dbus-daemon and playerctl"))
    func anEmbeddedNonSquareCoverBecomesTheSquareArtworkOfTheLockScreen() throws {
        let cover = ID3Tag.Picture(type: 3, data: TestImage.centredSquare(width: 1000, height: 700))
        let back = ID3Tag.Picture(type: 4, data: TestImage.centredSquare(width: 100, height: 100))
        let id = try download(try Self.tone(with: [back, cover]))
        let bus = try MessageBus()
        let environment = capture.environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { _, new in new }
        let path = try artwork(ofPlaying: id, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]) { path in
            let artURL = try RunningProcess(
                executable: URL(fileURLWithPath: "/usr/bin/playerctl"),
                arguments: ["-p", "podcli", "metadata", "mpris:artUrl"], environment: environment
            ).waitUntilExit().stdout
            #expect(artURL == "file://\(path)\n")
            #expect(try t.run(["status"]).stdout.hasSuffix("\nArtwork: \(path)\n"))
        }
        #expect(path == (try expectedPath(of: id)))
        let made = try inspect(try #require(path))
        #expect(made.width == 600 && made.height == 600)
        #expect(made.mode == 0o600)
    }

    /// With no picture in the audio, the episode's image is fetched; with that one broken, the
    /// podcast's. (Told apart by size: small covers are not enlarged.)
    @Test func theEpisodesImageThenThePodcastsIsFetchedWhenTheAudioHasNone() throws {
        let wide = try serveImage(TestImage.centredSquare(width: 300, height: 200))
        let tall = try serveImage(TestImage.centredSquare(width: 400, height: 500))
        let first = try subscribe("First", episodeImage: wide, podcastImage: tall)
        let fromEpisode = try #require(try artwork(ofPlaying: first))
        #expect(fromEpisode == (try expectedPath(of: first)))
        #expect(try inspect(fromEpisode).width == 200 && (try inspect(fromEpisode).height) == 200)

        let broken = try serveImage(Data("<html>moved</html>".utf8), named: "broken.png")
        let second = try subscribe("Second", episodeImage: broken, podcastImage: tall)
        let fromPodcast = try #require(try artwork(ofPlaying: second))
        #expect(try inspect(fromPodcast).width == 400 && (try inspect(fromPodcast).height) == 400)
    }

    /// A broken embedded picture, an episode image that takes a minute to arrive and a podcast
    /// image that is gone: the episode plays at once, exactly, with nothing said and no artwork.
    @Test func aMissingOrBrokenImageNeverDelaysOrDisturbsPlayback() throws {
        let png = TestImage.centredSquare(width: 200, height: 100)
        let slow = try serveImage(png) + "?slow=100"
        let gone = t.server.url("/files/no-such-cover.png")
        let id = try subscribe(
            "Slow", episodeImage: slow, podcastImage: gone, embedded: [ID3Tag.Picture(data: png.prefix(png.count / 2))])
        let started = Date()
        let play = try library.play([id])
        #expect(play.status == 0, "\(play)")
        #expect(play.stderr == "")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(try library.captured() == (try PlayCommandTests.reference(PlayCommandTests.stereo)))
        #expect(!FileManager.default.fileExists(atPath: try expectedPath(of: id)))
    }

    /// Issue 14: an embedded picture is capped as a fetched image is (10 MiB). A 100 MB front
    /// cover is passed over unread (reading the whole tag made the player's peak memory 233 MB):
    /// the small back cover after it is the artwork, and the player's peak stays that of any.
    @Test func aHundredMegabytePictureIsPassedOverWithoutRaisingThePlayersMemory() throws {
        let huge = ID3Tag.Picture(type: 3, data: Data(repeating: 0x5A, count: 100_000_000))
        let back = ID3Tag.Picture(type: 4, data: TestImage.centredSquare(width: 120, height: 90))
        let id = try download(try Self.tone(with: [huge, back]))
        var peak = 0
        let path = try artwork(
            ofPlaying: id,
            player: { pid in
                let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
                peak = Int(status.firstMatch(of: /VmHWM:\s+(\d+) kB/)?.1 ?? "") ?? 0
            })
        #expect(path != nil)
        #expect(try inspect(#require(path)).width == 90)
        #expect(peak > 0 && peak < 80_000, "peak RSS \(peak) kB")
    }
}
