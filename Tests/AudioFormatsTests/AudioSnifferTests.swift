import Foundation
import Testing

@testable import Downloads

@Suite struct AudioSnifferTests {
    private func fixtureBytes(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/\(name)").standardized
        return Array(try Data(contentsOf: url).prefix(AudioSniffer.windowSize))
    }

    @Test func anID3TagIsAudio() {
        #expect(AudioSniffer.verdict(Array("ID3\u{4}\0\0\0\0\0\0 rest".utf8)) == .audio)
    }

    @Test func realMP3FixturesAreAudio() throws {
        #expect(AudioSniffer.verdict(try fixtureBytes("tone-44k-stereo.mp3")) == .audio)
        #expect(AudioSniffer.verdict(try fixtureBytes("noise-22k-mono.mp3")) == .audio)
    }

    @Test func framesWithoutATagAreAudioEvenAfterJunk() throws {
        // Drop the ID3 tag of the fixture and put junk in front: two chained frames still count.
        let bytes = try fixtureBytes("noise-22k-mono.mp3")
        let tagSize =
            bytes.starts(with: Array("ID3".utf8))
            ? 10 + (Int(bytes[6]) << 21 | Int(bytes[7]) << 14 | Int(bytes[8]) << 7 | Int(bytes[9])) : 0
        let frames = Array(bytes[tagSize...])
        #expect(AudioSniffer.verdict(Array("junk!".utf8) + frames) == .audio)
    }

    @Test func htmlAndTextAndEmptyBodiesAreNot() throws {
        #expect(AudioSniffer.verdict(try fixtureBytes("not-audio.html")) == .notAudio("an HTML or XML page"))
        #expect(
            AudioSniffer.verdict(Array("  \n<?xml version=\"1.0\"?><rss/>".utf8)) == .notAudio("an HTML or XML page"))
        #expect(AudioSniffer.verdict(Array("plain text".utf8)) == .notAudio("no MPEG audio frame at its start"))
        #expect(AudioSniffer.verdict([]) == .notAudio("the body is empty"))
    }

    @Test func aLoneSyncPatternInNoiseIsNotAudio() {
        var bytes = [UInt8](repeating: 0x41, count: AudioSniffer.windowSize)
        bytes[100] = 0xFF
        bytes[101] = 0xFB
        bytes[102] = 0x90
        #expect(AudioSniffer.verdict(bytes) == .notAudio("no MPEG audio frame at its start"))
    }

    @Test func frameLengthsMatchTheStandard() {
        // MPEG-1 Layer III, 128 kbps, 44.1 kHz, no padding: 417 bytes; with padding 418.
        #expect(AudioSniffer.frameLength([0xFF, 0xFB, 0x90, 0x00], at: 0) == 417)
        #expect(AudioSniffer.frameLength([0xFF, 0xFB, 0x92, 0x00], at: 0) == 418)
        // MPEG-2 Layer III, 64 kbps, 22.05 kHz: 72 * 64000 / 22050 = 208.
        #expect(AudioSniffer.frameLength([0xFF, 0xF3, 0x80, 0x00], at: 0) == 208)
        // Reserved bitrate index 15 is no frame.
        #expect(AudioSniffer.frameLength([0xFF, 0xFB, 0xF0, 0x00], at: 0) == nil)
    }
}
