import Foundation
import TestSupport
import Testing

/// `podcli play --loudness` and the config's `loudness` end to end: the built podcli plays a
/// steady −26 LUFS episode on an ALSA capture device, and `ffmpeg -af ebur128` reads what reached it.
@Suite(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
struct PlayLoudnessTests {
    /// The steady episode fetched into a fresh library, and its number.
    static func library() throws -> (PlayCommandTests.Library, String) {
        let library = try PlayCommandTests.Library()
        let data = try Data(contentsOf: try LoudnessEpisodes.steady.url())
        let fetch = try library.t.run(["fetch", try library.t.source("steady.flac", data: data).url, "--json"])
        guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
        let record = try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any]
        return (library, "\(record["id"] as! Int)")
    }

    /// What the capture `name` heard once the gain has had 20 s to settle.
    static func heard(_ library: PlayCommandTests.Library, _ name: String) throws -> LoudnessEpisodes.Reading {
        try LoudnessEpisodes.measure(raw: library.captures.appending("\(name)_44100_1.raw"), from: 20)
    }

    @Test func theCommandLineBringsAnEpisodeToTheLoudnessAsked() throws {
        let (library, id) = try Self.library()
        let play = try library.play([id, "--loudness", "-16"], device: library.device("asked"))
        #expect(play.status == 0, "\(play)")
        let heard = try Self.heard(library, "asked")
        #expect(abs(heard.integratedLUFS - (-16)) <= 1, "\(heard.integratedLUFS) LUFS")
        #expect(heard.truePeakDBTP <= -1, "\(heard.truePeakDBTP) dBTP")
    }

    /// The config's `loudness` applies; `--loudness off` over it plays the episode as published,
    /// bit for bit.
    @Test func theConfigSetsTheLoudnessAndOffPlaysAsPublished() throws {
        let (library, id) = try Self.library()
        _ = try library.t.home.write("loudness = -20\n", to: "config")
        let configured = try library.play([id], device: library.device("configured"))
        #expect(configured.status == 0, "\(configured)")
        let heard = try Self.heard(library, "configured")
        #expect(abs(heard.integratedLUFS - (-20)) <= 1, "\(heard.integratedLUFS) LUFS")

        let off = try library.play([id, "--from", "0", "--loudness", "off"], device: library.device("off"))
        #expect(off.status == 0, "\(off)")
        let published = try AudioFixtures.reference(try LoudnessEpisodes.steady.url())
        #expect(try library.captured("off", rate: 44_100, channels: 1) == published)
    }
}
