import Foundation
import TestSupport
import Testing

@testable import Playback

/// `AudioMeasurement` against tools that are not the code under test: the length is the frames
/// `mpg123 -s` (MP3) or FFmpeg (every other format) decodes, the loudness and true peak are
/// FFmpeg's `ebur128` filter's, within 0.5 LU / 0.5 dB.
@Suite(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
struct AudioMeasurementTests {
    @Test(.requires(MPEGDecoderTests.mpg123Present, "mpg123 is not installed"))
    func anMP3MeasuresTheFramesMpg123DecodesAndFFmpegsLoudness() throws {
        let path = fixture("tone-44k-stereo.mp3").path
        let measured = try AudioMeasurement.measure(path: path)
        #expect(measured.frames == (try MPEGDecoderTests.reference(path)).count / 4)
        #expect(measured.sampleRate == 44_100)
        try Self.expectLoudness(measured, agreesWithFFmpegOn: path)
    }

    /// The `ffmpeg` command does not apply the end of an MP4's edit list (see `FFmpegDecoderTests`):
    /// there it decodes up to one AAC frame of the encoder's padding more than the source's 20 s,
    /// which the edit list, and the measurement, leave out.
    @Test(arguments: AudioFixtures.Kind.playable)
    func everyFormatMeasuresTheFramesFFmpegDecodesAndItsLoudness(_ kind: AudioFixtures.Kind) throws {
        let file = try AudioFixtures.shared.url(kind)
        let measured = try AudioMeasurement.measure(path: file.path)
        let decoded = (try AudioFixtures.reference(file)).count / (2 * kind.channels)
        switch kind {
        case .aacIndexLast, .aacIndexFirst, .aacMono22k:
            #expect(measured.frames == AudioFixtures.seconds * kind.sampleRate)
            #expect((0..<1024).contains(decoded - measured.frames))
        default:
            #expect(measured.frames == decoded)
        }
        #expect(measured.sampleRate == kind.sampleRate)
        try Self.expectLoudness(measured, agreesWithFFmpegOn: file.path)
    }

    /// The two episodes, a quiet one and a loud one, as MP3 and as Opus.
    @Test(arguments: [(-27.0, "mp3"), (-11.0, "mp3"), (-27.0, "opus"), (-11.0, "opus")])
    func toneAtAKnownLoudnessMeasuresAsFFmpegSays(_ lufs: Double, _ format: String) throws {
        let directory = try TemporaryDirectory(prefix: "podcli-loudness")
        let path = directory.path + "/tone.\(format)"
        // A 1 kHz tone in both channels: its loudness is 20 log10 of its amplitude (K-weighting is
        // +0.7 dB at 1 kHz, R128's offset -0.691). Beats at 3 Hz make its short-term loudness vary.
        // (The beats take 0.9 dB off: their RMS is 0.903.)
        let amplitude = pow(10, lufs / 20) / 0.903
        try AudioFixtures.runFFmpeg([
            "-f", "lavfi", "-i",
            "aevalsrc=\(amplitude)*sin(2*PI*1000*t)*(0.9+0.1*sin(2*PI*3*t)):s=48000:d=12:c=stereo",
            "-c:a", format == "mp3" ? "libmp3lame" : "libopus", "-b:a", "128k", path,
        ])
        let measured = try AudioMeasurement.measure(path: path)
        let reference = try AudioFixtures.ebur128(path)
        #expect(abs(reference.integrated - lufs) < 1, "the fixture is what it says")
        try Self.expectLoudness(measured, agreesWithFFmpegOn: path)
    }

    @Test func silenceHasALengthAndNoLoudness() throws {
        let directory = try TemporaryDirectory(prefix: "podcli-silence")
        let path = directory.path + "/silence.flac"
        try AudioFixtures.runFFmpeg(["-f", "lavfi", "-i", "anullsrc=r=44100:cl=stereo", "-t", "5", path])
        let measured = try AudioMeasurement.measure(path: path)
        #expect(measured.frames == 5 * 44_100)
        #expect(measured.loudness == nil)
    }

    @Test(arguments: AudioFixtures.Kind.broken)
    func aBrokenFileIsADecoderErrorOrAMeasurementNeverACrash(_ kind: AudioFixtures.Kind) throws {
        do {
            let measured = try AudioMeasurement.measure(path: try AudioFixtures.shared.url(kind).path)
            #expect(measured.frames >= 0)
        } catch {
            #expect(error is DecoderError)
        }
    }

    @Test func aFLACWhoseAudioIsNoiseIsADecoderError() throws {
        let directory = try TemporaryDirectory(prefix: "podcli-corrupt")
        let file = try directory.write(try AudioFixtures.shared.flacWithNoise(), to: "corrupt.flac")
        #expect(throws: DecoderError.self) { try AudioMeasurement.measure(path: file.path) }
    }

    /// Every file of `../shared/corpus/audio` (see its SOURCES.tsv), broken ones included:
    /// measured, or a decoder error, never a crash.
    @Test(
        .requires(!CorpusPlaybackTests.files.isEmpty, "../shared/corpus/audio is not present"),
        arguments: CorpusPlaybackTests.files)
    func everyCorpusFileMeasuresWithoutACrash(_ file: String) throws {
        let path = CorpusPlaybackTests.corpus.appendingPathComponent(file).path
        do {
            let measured = try AudioMeasurement.measure(path: path)
            if let loudness = measured.loudness {
                #expect(loudness.integratedLUFS.isFinite && loudness.truePeakDBTP.isFinite)
            }
        } catch {
            #expect(error is DecoderError)
        }
    }

    // MARK: FFmpeg, the reference

    static func expectLoudness(
        _ measured: AudioMeasurement, agreesWithFFmpegOn path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let reference = try AudioFixtures.ebur128(path)
        let loudness = try #require(measured.loudness, sourceLocation: sourceLocation)
        #expect(abs(loudness.integratedLUFS - reference.integrated) <= 0.5, sourceLocation: sourceLocation)
        #expect(abs(loudness.truePeakDBTP - reference.truePeak) <= 0.5, sourceLocation: sourceLocation)
    }
}
