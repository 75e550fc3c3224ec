import AudioFormats
import Foundation
import TestSupport
import Testing

@testable import AudioFormats

@Suite struct AudioSnifferTests {
    private func head(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url).prefix(AudioSniffer.windowSize)) }

    @Test func anID3TagIsAudioAndWhatFollowsItNamesTheContainer() {
        #expect(AudioSniffer.verdict(Array("ID3\u{4}\0\0\0\0\0\0 rest".utf8)) == .audio(.mpeg(layer: nil)))
        #expect(AudioSniffer.verdict(Array("ID3\u{4}\0\0\0\0\0\0fLaC".utf8)) == .audio(.flac))
    }

    @Test func realMP3FixturesAreMPEGAudio() throws {
        #expect(AudioSniffer.verdict(try head(fixture("tone-44k-stereo.mp3"))) == .audio(.mpeg(layer: 3)))
        #expect(AudioSniffer.verdict(try head(fixture("noise-22k-mono.mp3"))) == .audio(.mpeg(layer: 3)))
    }

    @Test(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
    func everyContainerFfmpegWritesIsRecognised() throws {
        let expected: [AudioFixtures.Kind: AudioContainer] = [
            .aacIndexLast: .mp4, .aacIndexFirst: .mp4, .aacMono22k: .mp4, .alac: .mp4, .adts: .adts,
            .opus: .ogg(.opus), .vorbis: .ogg(.vorbis), .flac: .flac,
        ]
        for (kind, container) in expected {
            #expect(AudioSniffer.verdict(try head(AudioFixtures.shared.url(kind))) == .audio(container), "\(kind)")
        }
    }

    @Test func framesWithoutATagAreAudioEvenAfterJunk() throws {
        // Drop the ID3 tag of the fixture and put junk in front: two chained frames still count.
        let bytes = try head(fixture("tone-44k-stereo.mp3"))
        let tagSize = 10 + (Int(bytes[6]) << 21 | Int(bytes[7]) << 14 | Int(bytes[8]) << 7 | Int(bytes[9]))
        #expect(AudioSniffer.verdict(Array("junk!".utf8) + Array(bytes[tagSize...])) == .audio(.mpeg(layer: 3)))
    }

    /// A 24 ms MP2 file is one frame: libmpg123 plays it.
    @Test func aSingleFrameIsAudio() {
        // MPEG-1 Layer II, 384 kbps, 48 kHz: 1152 bytes.
        var frame = [UInt8](repeating: 0x55, count: 1152)
        frame[0...3] = [0xFF, 0xFD, 0xE4, 0xC4]
        #expect(AudioSniffer.verdict(frame) == .audio(.mpeg(layer: 2)))
    }

    @Test func whatIsNotAudioIsSaidForWhatItIs() throws {
        #expect(AudioSniffer.verdict(try head(fixture("not-audio.html"))) == .notAudio("an HTML page"))
        #expect(AudioSniffer.verdict(Array("  \n<?xml version=\"1.0\"?><rss/>".utf8)) == .notAudio("an XML document"))
        #expect(AudioSniffer.verdict(Array("plain text, café".utf8)) == .notAudio("plain text"))
        #expect(AudioSniffer.verdict(Array("{\"error\": 404}".utf8)) == .notAudio("JSON or other text"))
        #expect(AudioSniffer.verdict([UInt8](TestImage.centredSquare(width: 4, height: 4))) == .notAudio("a PNG image"))
        #expect(AudioSniffer.verdict([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == .notAudio("a JPEG image"))
        #expect(AudioSniffer.verdict([]) == .notAudio("the body is empty"))
        #expect(
            AudioSniffer.verdict([0, 1, 2, 3, 200, 201, 7])
                == .notAudio("unrecognised data: no MP3, M4A, AAC, Ogg (Opus, Vorbis) or FLAC audio at its start"))
    }

    @Test func aLoneSyncPatternInTextIsNotAudio() {
        var bytes = [UInt8](repeating: 0x41, count: AudioSniffer.windowSize)
        bytes[100...102] = [0xFF, 0xFB, 0x90]
        #expect(!AudioSniffer.verdict(bytes).isAudio)
        bytes[100...106] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC]  // one ADTS header
        #expect(!AudioSniffer.verdict(bytes).isAudio)
    }

    @Test func frameLengthsMatchTheStandard() {
        // MPEG-1 Layer III, 128 kbps, 44.1 kHz, no padding: 417 bytes; with padding 418.
        #expect(MPEGFrameHeader([0xFF, 0xFB, 0x90, 0x00], at: 0)?.length == 417)
        #expect(MPEGFrameHeader([0xFF, 0xFB, 0x92, 0x00], at: 0)?.length == 418)
        // MPEG-2 Layer III, 64 kbps, 22.05 kHz: 72 * 64000 / 22050 = 208.
        #expect(MPEGFrameHeader([0xFF, 0xF3, 0x80, 0x00], at: 0)?.length == 208)
        // Reserved bitrate index 15 is no frame.
        #expect(MPEGFrameHeader([0xFF, 0xFB, 0xF0, 0x00], at: 0) == nil)
        // ADTS: the 13-bit frame length of bytes 3 to 5.
        #expect(ADTSHeader([0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC], at: 0)?.length == 16)
    }

    @Test func mediaTypesAndExtensionsNameContainers() {
        #expect(AudioContainer(mediaType: "audio/x-m4a") == .mp4)
        #expect(AudioContainer(mediaType: "Audio/MP4; charset=binary") == .mp4)
        #expect(AudioContainer(mediaType: "video/mp4") == .mp4)
        #expect(AudioContainer(mediaType: "audio/ogg; codecs=\"opus\"") == .ogg(.opus))
        #expect(AudioContainer(mediaType: "audio/ogg") == .ogg(.unknown))
        #expect(AudioContainer(mediaType: "audio/mpeg; layer=2") == .mpeg(layer: 2))
        #expect(AudioContainer(mediaType: "application/octet-stream") == nil)
        #expect(AudioContainer(fileExtension: "OPUS") == .ogg(.opus))
        #expect(AudioContainer(fileExtension: "m4b") == .mp4)
        for container in [AudioContainer.mpeg(layer: 2), .mp4, .adts, .ogg(.opus), .ogg(.vorbis), .flac] {
            #expect(AudioContainer(mediaType: container.mediaType) == container)
        }
    }
}
