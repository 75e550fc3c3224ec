import CMPG123
import Foundation
import TestSupport
import Testing

@testable import Playback

/// The picture of an episode's file, read by podcli's own tag readers: compared with what
/// libmpg123's reader (MPG123_PICTURE, which reads the whole tag into memory) finds in the real
/// MP3s of the corpus, and capped at 10 MiB.
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

    /// Issue 14: a picture is capped as a fetched image is; a larger one is passed over unread,
    /// and the next (smaller) one taken.
    @Test func aPictureLargerThanTenMebibytesIsPassedOver() throws {
        let huge = ID3Tag.Picture(type: 3, data: Data(repeating: 0xAB, count: EmbeddedPicture.limit + 1))
        let small = ID3Tag.Picture(type: 4, data: Data("the back".utf8))
        let (directory, path) = try tagged([huge, small])
        #expect(EmbeddedPicture.read(from: path) == Array("the back".utf8))
        let (other, exact) = try tagged([
            ID3Tag.Picture(type: 3, data: Data(repeating: 7, count: EmbeddedPicture.limit))
        ])
        #expect(EmbeddedPicture.read(from: exact)?.count == EmbeddedPicture.limit)
        withExtendedLifetime((directory, other)) {}
    }

    @Test func aFileWithoutAPictureOrWithoutAudioHasNone() throws {
        #expect(EmbeddedPicture.read(from: fixture("tone-44k-stereo.mp3").path) == nil)
        #expect(EmbeddedPicture.read(from: fixture("not-audio.html").path) == nil)
        #expect(EmbeddedPicture.read(from: "/nonexistent/episode.mp3") == nil)
    }

    static let corpusFiles = CorpusPlaybackTests.files

    /// ID3v2.2 PIC, v2.3 and v2.4 APIC (UTF-8 and UTF-16 descriptions, two pictures): the same
    /// bytes as libmpg123 finds, in every file of the corpus.
    @Test(.enabled(if: !corpusFiles.isEmpty, "../shared/corpus/audio is not present"), arguments: corpusFiles)
    func findsWhatLibmpg123FindsInTheCorpus(_ file: String) throws {
        let path = CorpusPlaybackTests.corpus.appendingPathComponent(file).path
        guard file != "itunes10-id3v22-pic.mp3" else {
            // libmpg123 1.31 keeps no pictures of ID3v2.2 (PIC frames): iTunes 10's is a PNG.
            #expect(Self.libmpg123Picture(path) == nil)
            #expect(EmbeddedPicture.read(from: path)?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
            return
        }
        #expect(EmbeddedPicture.read(from: path) == Self.libmpg123Picture(path))
    }

    /// The front cover, else the first picture, as libmpg123 (1.31) reads them.
    static func libmpg123Picture(_ path: String) -> [UInt8]? {
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else { return nil }
        defer { mpg123_delete(handle) }
        let flags = MPG123_QUIET.rawValue | MPG123_PICTURE.rawValue | MPG123_NO_PEEK_END.rawValue
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(flags), 0)
        guard mpg123_open(handle, path) == MPG123_OK.rawValue else { return nil }
        defer { mpg123_close(handle) }
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        _ = mpg123_getformat(handle, &rate, &channels, &encoding)
        var v1: UnsafeMutablePointer<mpg123_id3v1>?
        var v2: UnsafeMutablePointer<mpg123_id3v2>?
        guard mpg123_meta_check(handle) & MPG123_ID3 != 0, mpg123_id3(handle, &v1, &v2) == MPG123_OK.rawValue,
            let tag = v2?.pointee, let first = tag.picture
        else { return nil }
        let pictures = UnsafeBufferPointer(start: first, count: tag.pictures).filter { $0.size > 0 && $0.data != nil }
        guard let picture = pictures.first(where: { $0.type == 3 }) ?? pictures.first else { return nil }
        return Array(UnsafeBufferPointer(start: picture.data, count: picture.size))
    }
}
