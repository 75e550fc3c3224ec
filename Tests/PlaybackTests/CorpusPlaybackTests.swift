import Foundation
import TestSupport
import Testing

@testable import AudioFormats
@testable import Playback

/// The real MP3s of `../shared/corpus/audio` (see its SOURCES.tsv), played on a capture device:
/// what reaches the device is exactly what `mpg123 -s` decodes, broken files included; a file
/// from which mpg123 gets no sound at all fails with a decoder error, never a crash. One
/// exception, on purpose: a stream of a single frame, of which `mpg123 -s` outputs nothing
/// (libmpg123 waits for a second frame header to trust the first), plays that frame: what
/// `mpg123 -s` decodes of the frame in front of a copy of itself, up to the copy.
/// Runs whenever the folder is present (CI always has it).
@Suite(.requires(MPEGDecoderTests.mpg123Present, "mpg123 is not installed"))
struct CorpusPlaybackTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/audio").standardized

    static let files: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
        .filter { [".mp3", ".mp2", ".mp1"].contains(where: $0.hasSuffix) }.sorted()

    @Test(.requires(!files.isEmpty, "../shared/corpus/audio is not present"), arguments: files)
    func playsExactlyWhatMpg123Decodes(_ file: String) throws {
        let path = Self.corpus.appendingPathComponent(file).path
        let reference = try MPEGDecoderTests.reference(path)
        if reference.isEmpty, let doubled = try Self.singleFrameDoubled(path) {
            let played = try PlayerTests.play(path)
            #expect(played.reason == .endOfEpisode)
            #expect(played.heard.count * 2 == doubled.count)
            #expect(played.heard == doubled.prefix(played.heard.count))
        } else if reference.isEmpty {
            do {
                let played = try PlayerTests.play(path)
                #expect(played.heard.isEmpty)
            } catch {
                #expect(error is DecoderError)
            }
        } else {
            let played = try PlayerTests.play(path)
            #expect(played.reason == .endOfEpisode)
            #expect(played.heard == reference)
        }
    }

    /// When the audio of `path` (after its ID3v2 tag) is one MPEG frame: what `mpg123 -s` decodes
    /// of that frame twice over.
    static func singleFrameDoubled(_ path: String) throws -> Data? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tag =
            bytes.count > 10 && bytes.starts(with: Array("ID3".utf8))
            ? 10 + bytes[6..<10].reduce(0) { $0 << 7 | Int($1) } : 0
        guard let frame = MPEGFrameHeader(bytes, at: tag), tag + frame.length == bytes.count else { return nil }
        let directory = try TemporaryDirectory(prefix: "podcli-one-frame")
        let doubled = try directory.write(Data(bytes + bytes[tag...]), to: "doubled.mp3")
        let pcm = try MPEGDecoderTests.reference(doubled.path)
        return pcm.isEmpty ? nil : pcm
    }

    /// 7 frames of audio, then 14.7 KB of garbage: the audio plays, the garbage is reported once
    /// and ends the episode.
    @Test(.requires(files.contains("ghost-data-after-frames.mp3"), "the corpus is not present"))
    func garbageAfterTheAudioIsReportedAndEndsTheEpisode() throws {
        let played = try PlayerTests.play(Self.corpus.appendingPathComponent("ghost-data-after-frames.mp3").path)
        #expect(played.reason == .endOfEpisode)
        let warnings = played.events.filter {
            if case .skippedCorruptAudio = $0 { return true } else { return false }
        }
        #expect(warnings.count == 1)
    }
}
