import AudioFormats
import Foundation
import TestSupport
import Testing

/// The structure of complete files, judged without a decoder, on files ffmpeg made.
@Suite(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
struct AudioFileCheckTests {
    private func problem(_ kind: AudioFixtures.Kind) throws -> String? {
        let url = try AudioFixtures.shared.url(kind)
        let bytes = try #require(FileBytes(path: url.path))
        guard case .audio(let container) = AudioSniffer.verdict(bytes.bytes(at: 0, count: AudioSniffer.windowSize))
        else { return "not audio" }
        return AudioFileCheck.problem(in: bytes, container: container)
    }

    @Test(arguments: AudioFixtures.Kind.playable)
    func everyPlayableFileIsFine(_ kind: AudioFixtures.Kind) throws {
        #expect(try problem(kind) == nil)
    }

    @Test func eachBrokenFileIsSaidWhatIsWrong() throws {
        let truncatedSize = try Data(contentsOf: AudioFixtures.shared.url(.truncated)).count
        let truncated = try #require(try problem(.truncated))
        #expect(truncated.hasPrefix("the M4A file is cut short: its 'mdat' box runs to byte "))
        #expect(truncated.hasSuffix("past the end of the file (\(truncatedSize) bytes)"))
        #expect(try problem(.videoOnly) == "the MP4 file has video and no audio track")
        #expect(try problem(.encrypted) == "the M4A file is encrypted (DRM), which podcli cannot play")
        #expect(try problem(.unknownCodec) == "its audio is in a format podcli cannot play ('zzzz')")
        let broken = try #require(try problem(.brokenPage))
        #expect(broken.hasPrefix("the Ogg file is damaged: the page at byte "))
        #expect(broken.hasSuffix(" fails its checksum"))
    }

    @Test func anM4AWhoseIndexIsMissingOrWhoseLastBytesAreGoneIsCutShort() throws {
        let whole = [UInt8](try Data(contentsOf: AudioFixtures.shared.url(.aacIndexLast)))
        // Index last: cut in its index.
        #expect(
            AudioFileCheck.problem(in: MemoryBytes(Array(whole.dropLast(100))), container: .mp4)?
                .hasPrefix("the M4A file is cut short: its 'moov' box") == true)
        let first = [UInt8](try Data(contentsOf: AudioFixtures.shared.url(.aacIndexFirst)))
        #expect(
            AudioFileCheck.problem(in: MemoryBytes(Array(first.dropLast(10))), container: .mp4)?
                .hasPrefix("the M4A file is cut short") == true)
        #expect(MP4Layout.indexFollowsAudio(in: MemoryBytes(whole)))
        #expect(!MP4Layout.indexFollowsAudio(in: MemoryBytes(first)))
    }

    @Test func anOggFileCutInAPageIsCutShort() throws {
        let whole = [UInt8](try Data(contentsOf: AudioFixtures.shared.url(.vorbis)))
        #expect(
            AudioFileCheck.problem(in: MemoryBytes(Array(whole.dropLast(30))), container: .ogg(.vorbis))?
                .hasPrefix("the Ogg file is cut short") == true)
    }

    @Test func aFLACFileWithNoFramesIsSaidSo() throws {
        // "fLaC", then a last STREAMINFO block of 34 bytes, and nothing after it.
        let bytes = Array("fLaC".utf8) + [0x80, 0, 0, 34] + [UInt8](repeating: 0, count: 34)
        #expect(AudioFileCheck.problem(in: MemoryBytes(bytes), container: .flac) == "the FLAC file has no audio frames after its metadata")
    }
}
