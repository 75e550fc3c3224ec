import Foundation
import TestSupport
import Testing

/// `podcli play --loudness` and the config's `loudness` end to end: the built podcli plays a
/// steady −26 LUFS episode on an ALSA capture device, and `ffmpeg -af ebur128` reads what reached it.
@Suite(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
struct PlayLoudnessTests {
    /// `episode` fetched into a fresh library (and measured after its download), and its number.
    static func library(_ episode: LoudnessEpisodes = .steady) throws -> (PlayCommandTests.Library, String) {
        let library = try PlayCommandTests.Library()
        let data = try Data(contentsOf: try episode.url())
        let fetch = try library.t.run(["fetch", try library.t.source(episode.rawValue, data: data).url, "--json"])
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

    /// A downloaded episode was measured after its download: its gain is right from the first
    /// second. The −27 LUFS episode's first 10 s play at −16 LUFS (measured as it played, the gain
    /// would start after 3 s and take 5 more to rise by 11 dB: about −19).
    @Test func aDownloadedEpisodePlaysWithTheGainItsMeasurementAsks() throws {
        let (library, id) = try Self.library(.quiet)
        let measured = try #require(try library.t.show(id)["loudness"] as? Double)
        #expect(abs(measured - (-27)) <= 0.5)
        let play = try library.play([id, "--loudness", "-16", "--for", "10"], device: library.device("measured"))
        #expect(play.status == 0, "\(play)")
        let heard = try LoudnessEpisodes.measure(raw: library.captures.appending("measured_44100_1.raw"))
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
