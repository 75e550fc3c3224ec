import Foundation
import TestSupport
import Testing

@testable import Playback

/// Real libmpg123 reading ID3v2 APIC frames that the test puts in front of a fixture.
@Suite struct EmbeddedPictureTests {
    private func tagged(_ pictures: [ID3Tag.Picture]) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory(prefix: "podcli-apic")
        let mp3 = ID3Tag.tagging(try Data(contentsOf: fixture("tone-44k-stereo.mp3")), with: pictures)
        return (directory, try directory.write(mp3, to: "tagged.mp3").path)
    }

    @Test func theFrontCoverIsPreferredOverTheFirstPicture() throws {
        let back = ID3Tag.Picture(type: 4, data: Data("back cover".utf8))
        let front = ID3Tag.Picture(type: 3, mimeType: "image/jpeg", data: Data("front cover".utf8))
        let (directory, path) = try tagged([back, front])
        #expect(EmbeddedPicture.read(from: path) == Array("front cover".utf8))
        withExtendedLifetime(directory) {}
    }

    @Test func withNoFrontCoverTheFirstPictureIsTaken() throws {
        let image = TestImage.centredSquare(width: 90, height: 60)
        let (directory, path) = try tagged([ID3Tag.Picture(type: 0, data: image), .init(type: 8, data: Data([1]))])
        #expect(EmbeddedPicture.read(from: path) == [UInt8](image))
        // The tag does not get in the way of the audio.
        #expect(try MPEGDecoder(path: path).frameCount == 3 * 44_100)
        withExtendedLifetime(directory) {}
    }

    @Test func aFileWithoutAPictureOrWithoutAudioHasNone() throws {
        #expect(EmbeddedPicture.read(from: fixture("tone-44k-stereo.mp3").path) == nil)
        #expect(EmbeddedPicture.read(from: fixture("not-audio.html").path) == nil)
        #expect(EmbeddedPicture.read(from: "/nonexistent/episode.mp3") == nil)
    }
}
