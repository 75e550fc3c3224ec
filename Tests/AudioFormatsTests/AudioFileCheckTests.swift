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

    /// What the player's decoders refuse is refused here too (issue 22: `fetch` kept them, and
    /// `play` said "End of file" or "Invalid data"), each in words saying what is wrong.
    @Test func hostileFilesThePlayerRefusesAreRefused() throws {
        #expect(try problem(.headersOnly) == "the Ogg file has no audio: its stream ends after its headers")
        #expect(
            try problem(.zeroBlockSize) == "the FLAC stream is damaged: its blocks are at most 0 samples (16 or more)")
        let damaged = "the M4A file is damaged: its audio track's "
        #expect(try problem(.noSampleDescription) == damaged + "'stsd' box counts 0 sample descriptions")
        #expect(try problem(.noSamples) == damaged + "'stsz' box counts 0 samples")
        #expect(try problem(.tooManySamples) == damaged + "'stsz' box counts 100000 samples, more than it holds")
        #expect(try problem(.noChunks) == damaged + "'stco' box counts 0 chunks")
        #expect(try problem(.tooManyChunks) == damaged + "'stco' box counts 100000 chunks, more than it holds")
    }

    /// The other hostile Ogg streams: Vorbis (whose three headers share two pages) and FLAC with
    /// nothing after their header pages, FLAC in Ogg whose stream information says 0; and the
    /// good ones whose samples come in fragments (empty sample tables) or whose last granule is
    /// impossible, which play.
    @Test func anOggStreamOfHeadersOnlyOrAZeroBlockSizeIsRefusedInAnyCodec() throws {
        for (kind, codec) in [(AudioFixtures.Kind.vorbis, AudioContainer.OggCodec.vorbis), (.flacInOgg, .flac)] {
            var bytes = [UInt8](try Data(contentsOf: AudioFixtures.shared.url(kind)))
            let headers = try AudioFixtures.oggPages(bytes)[1]
            bytes.removeSubrange(headers.upperBound...)
            #expect(
                AudioFileCheck.problem(in: MemoryBytes(bytes), container: .ogg(codec))
                    == "the Ogg file has no audio: its stream ends after its headers")
        }
        var flac = [UInt8](try Data(contentsOf: AudioFixtures.shared.url(.flacInOgg)))
        let first = try AudioFixtures.oggPages(flac)[0]
        // The page's header, the mapping's 13 bytes, the block's 4, then the smallest and largest block sizes.
        let largest = first.lowerBound + 27 + Int(flac[first.lowerBound + 26]) + 13 + 4 + 2
        flac.replaceSubrange(largest..<(largest + 2), with: [0, 8])
        AudioFixtures.checksumOggPage(&flac, first)
        #expect(
            AudioFileCheck.problem(in: MemoryBytes(flac), container: .ogg(.flac))
                == "the FLAC stream is damaged: its blocks are at most 8 samples (16 or more)")
        for kind in [AudioFixtures.Kind.aacFragmented, .flacInOgg] + AudioFixtures.Kind.hugeGranule {
            #expect(try problem(kind) == nil, "\(kind)")
        }
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
        // "fLaC", then a last STREAMINFO block of 34 bytes (blocks of 4,096 samples, 44.1 kHz
        // stereo, 16 bits), and nothing after it.
        let info: [UInt8] =
            [0x10, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0xC4, 0x42, 0xF0] + [UInt8](repeating: 0, count: 20)
        let bytes = Array("fLaC".utf8) + [0x80, 0, 0, 34] + info
        #expect(
            AudioFileCheck.problem(in: MemoryBytes(bytes), container: .flac)
                == "the FLAC file has no audio frames after its metadata")
    }
}
