import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the podcli binary links.
@Suite struct LinkageTests {
    /// Modules that load libFoundation.so, and with it libFoundationInternationalization.so and
    /// ICU's data: about 6.5 MB of resident memory that podcli does without.
    static let heavyModules: Set<Substring> = [
        "Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    ]

    /// Read from the sources, not the binary: an incremental debug build keeps the link entries of
    /// imports that were removed until the files that had them are compiled again.
    @Test func noModuleOfTheBinaryImportsMoreThanFoundationEssentials() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources").standardized.path
        let files = try #require(FileManager.default.subpaths(atPath: sources)).filter {
            // EmbedSQL runs at build time and is not linked into podcli.
            $0.hasSuffix(".swift") && !$0.hasPrefix("EmbedSQL/")
        }
        var offending: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                // `import Foundation`, `@_exported import Foundation`, `import struct Foundation.Data`.
                let words = line.split(separator: " ").drop { $0.hasPrefix("@") }
                guard words.first == "import", let name = words.last?.split(separator: ".").first else { continue }
                if Self.heavyModules.contains(name) { offending.append("\(file): \(line)") }
            }
        }
        #expect(offending == [])
    }

    /// libgd is loaded when artwork is first made: linked, it would bring some eighty libraries
    /// (HEIF, AVIF, TIFF, X11, ...) into every run, about 10 MB of resident memory.
    @Test func theBinaryDoesNotLinkLibgd() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [try PodcliRunner.locateExecutable().path]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(output.contains("libsqlite3"))
        #expect(!output.contains("libgd"), "\(output)")
    }

    /// FFmpeg is loaded (dlopen) when a file that is not MPEG audio is first decoded: linked, its
    /// libraries would bring a hundred others (x264, x265, dav1d, vpx, ...) into every run.
    @Test func theBinaryDoesNotLinkFFmpeg() throws {
        let output = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/ldd"), arguments: [try PodcliRunner.locateExecutable().path],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit().stdout
        #expect(output.contains("libmpg123"))
        for library in Self.ffmpegLibraries { #expect(!output.contains(library), "\(output)") }
    }

    static let ffmpegLibraries = ["libavformat", "libavcodec", "libavutil", "libswresample"]

    /// `--version`, `list` and `sync` (downloading an M4A and an MP3, whose structure it checks
    /// without a decoder) never load FFmpeg: the dynamic loader's own account of every library
    /// it maps, dlopen's included (LD_DEBUG=files), says so; decoding an M4A does load it.
    @Test(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
    func onlyDecodingAFormatThatIsNotMPEGLoadsFFmpeg() throws {
        let world = try FeedCommandTests.World()
        var items: [FeedCommandTests.Item] = []
        for (n, (name, source)) in [
            ("tone.mp3", fixture("tone-44k-stereo.mp3")), ("tone.m4a", try AudioFixtures.shared.url(.aacIndexFirst)),
        ].enumerated() {
            let data = try Data(contentsOf: source)
            try data.write(to: world.directory.appendingPathComponent(name))
            var item = world.item(n + 1)
            item.title = name
            item.url = world.url(name)
            item.length = data.count
            items.append(item)
        }
        let feed = try world.serve("feed.xml", FeedCommandTests.rss(title: "Both", items: items))
        #expect(try world.t.run(["fetch", feed]).status == 0)
        _ = try world.t.home.write("download = all\n", to: "config")
        func loaded(_ arguments: [String]) throws -> String {
            let result = try world.t.run(arguments, environment: ["LD_DEBUG": "files"])
            #expect(result.status == 0, "\(arguments): \(result.stdout)")
            return result.stderr
        }
        for arguments in [["--version"], ["list"]] {
            let libraries = try loaded(arguments)
            #expect(libraries.contains("libsqlite3") || arguments == ["--version"], "\(arguments)")
            for library in Self.ffmpegLibraries {
                #expect(!libraries.contains(library), "\(arguments) loaded \(library)")
            }
        }
        // A sync that downloads the M4A measures it (its length, its loudness) with FFmpeg's decoder;
        // one with nothing new to measure does not load it.
        #expect(try loaded(["sync", "--quiet"]).contains("libavcodec.so.59"))
        let quiet = try loaded(["sync", "--quiet"])
        for library in Self.ffmpegLibraries {
            #expect(!quiet.contains(library), "a sync with nothing to measure loaded \(library)")
        }
        let episodes = try world.episodes()
        let mp3 = "\(episodes.first { $0["title"] as? String == "tone.mp3" }!["id"] as! Int)"
        let m4a = "\(episodes.first { $0["title"] as? String == "tone.m4a" }!["id"] as! Int)"
        #expect(!(try loaded(["play", mp3, "--device", "null"])).contains("libavcodec"))
        #expect(try loaded(["play", m4a, "--device", "null"]).contains("libavcodec.so.59"))
    }

    /// While it plays, in real time on a PulseAudio null sink: an MP3 player's memory holds no
    /// FFmpeg library (as PlayArtworkTests checks for libgd), an M4A player's holds them all.
    @Test(
        .enabled(
            if: AudioFixtures.unavailableReason == nil && PulseAudioServer.unavailableReason == nil
                && PulseAudioServer.alsaPluginInstalled, "needs ffmpeg, pulseaudio and libasound2-plugins"))
    func anMP3PlayerMapsNoFFmpegLibraryAndAnM4APlayerMapsThem() throws {
        let library = try PlayCommandTests.Library()
        let mp3 = try library.download(PlayCommandTests.stereo)
        let m4a = try FormatsCommandTests.download(.aacIndexFirst, in: library)
        let devices = try TemporaryDirectory(prefix: "podcli-paced")
        let pulse = try PulseAudioServer()
        let capture = try ALSACapture(directory: devices.url, pulseAudio: pulse)
        func maps(whilePlaying id: String) throws -> String {
            let t = library.t
            let process = try RunningProcess(
                executable: t.podcli.executableURL,
                arguments: ["--home", t.home.path, "play", id, "--device", ALSACapture.pacedDeviceName],
                environment: t.podcli.childEnvironment(capture.environment))
            defer { process.kill(signal: SIGKILL) }
            let playing = waitUntil(timeout: 10) {
                let status = try? t.run(["status", "--json"])
                return status.map { $0.status == 0 && $0.stdout.contains("\"playing\"") } ?? false
            }
            #expect(playing)
            let maps = try ProcessMaps.read(process.pid)
            #expect(try t.run(["stop"]).status == 0)
            _ = try process.waitUntilExit()
            return maps
        }
        let mp3Maps = try maps(whilePlaying: mp3)
        #expect(mp3Maps.contains("libmpg123"))
        for name in Self.ffmpegLibraries { #expect(!mp3Maps.contains(name)) }
        let m4aMaps = try maps(whilePlaying: m4a)
        for name in Self.ffmpegLibraries { #expect(m4aMaps.contains(name), "\(name)") }
    }
}
