import AudioFormats
import Foundation
import TestSupport
import Testing

/// Pictures found in every kind of tag: ID3v2 (as the tests write it), and MP4 `covr`, FLAC
/// PICTURE, Vorbis and Opus METADATA_BLOCK_PICTURE as ffmpeg writes them.
@Suite struct EmbeddedPicturesTests {
    static let cover = [UInt8](TestImage.centredSquare(width: 30, height: 20))
    static let back = [UInt8](TestImage.centredSquare(width: 10, height: 10))

    private func front(_ bytes: [UInt8], limit: Int = 1 << 20) -> [UInt8]? {
        EmbeddedPictures.front(in: MemoryBytes(bytes), limit: limit)
    }

    @Test func anID3FrontCoverIsPreferredAndAPictureOverTheLimitIsPassedOver() throws {
        let mp3 = try Data(contentsOf: fixture("tone-44k-stereo.mp3"))
        let tagged = [UInt8](
            ID3Tag.tagging(mp3, with: [.init(type: 4, data: Data(Self.back)), .init(type: 3, data: Data(Self.cover))]))
        #expect(front(tagged) == Self.cover)
        #expect(front(tagged, limit: Self.back.count) == Self.back)
        #expect(front(tagged, limit: Self.back.count - 1) == nil)
        #expect(front([UInt8](mp3)) == nil)
    }

    /// ID3v2.3 with the whole tag unsynchronised: a 0x00 follows every 0xFF of the frames.
    @Test func anUnsynchronisedID3v23TagIsReadBack() {
        let picture: [UInt8] = [0xFF, 0xD8, 0xFF, 0x00, 0xFF, 0xE0, 1, 2, 3]
        let body = [0] + Array("image/jpeg".utf8) + [0, 3, 0] + picture
        var frame = Array("APIC".utf8) + [0, 0, 0, UInt8(body.count), 0, 0] + body
        var unsynchronised: [UInt8] = []
        for byte in frame {
            unsynchronised.append(byte)
            if byte == 0xFF { unsynchronised.append(0) }
        }
        frame = unsynchronised
        let tag = [0x49, 0x44, 0x33, 3, 0, 0x80, 0, 0, UInt8(frame.count >> 7), UInt8(frame.count & 0x7F)] + frame
        #expect(front(tag + [0xFF, 0xFB, 0x90, 0x00]) == picture)
    }

    @Test(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"), arguments: ["m4a", "flac"])
    func theCoverFfmpegAttachesIsFound(_ format: String) throws {
        let directory = try TemporaryDirectory(prefix: "podcli-cover")
        let image = try directory.write(Data(Self.cover), to: "cover.png")
        let output = directory.appending("covered.\(format)")
        let codec = format == "m4a" ? "aac" : "flac"
        try Self.ffmpeg([
            "-i", try AudioFixtures.shared.source().path, "-i", image.path, "-map", "0", "-map", "1", "-c:a", codec,
            "-c:v", "copy", "-disposition:v", "attached_pic", "-t", "2", output.path,
        ])
        #expect(front([UInt8](try Data(contentsOf: output))) == Self.cover)
    }

    @Test(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"), arguments: ["opus", "ogg"])
    func aMetadataBlockPictureCommentIsFound(_ format: String) throws {
        let directory = try TemporaryDirectory(prefix: "podcli-cover")
        func block(type: UInt32, _ image: [UInt8]) -> String {
            func be(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
            let mime = Array("image/png".utf8)
            let bytes =
                be(Int(type)) + be(mime.count) + mime + be(0) + be(30) + be(20) + be(24) + be(0) + be(image.count)
                + image
            return Data(bytes).base64EncodedString()
        }
        func encode(_ name: String, _ picture: String) throws -> [UInt8] {
            let output = directory.appending("\(name).\(format)")
            try Self.ffmpeg([
                "-i", try AudioFixtures.shared.source().path, "-t", "2", "-c:a",
                format == "opus" ? "libopus" : "libvorbis", "-metadata", "METADATA_BLOCK_PICTURE=\(picture)",
                output.path,
            ])
            return [UInt8](try Data(contentsOf: output))
        }
        // ffmpeg keeps one value per key: a back cover (type 4) in one file, a front cover in another.
        #expect(front(try encode("back", block(type: 4, Self.back))) == Self.back)
        let covered = try encode("front", block(type: 3, Self.cover))
        #expect(front(covered) == Self.cover)
        #expect(front(covered, limit: 100) == nil)
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let result = try RunningProcess(
            executable: AudioFixtures.ffmpeg, arguments: ["-v", "error", "-nostdin", "-y"] + arguments,
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        guard result.status == 0 else { throw TestSupportError("ffmpeg failed: \(result)") }
    }
}
