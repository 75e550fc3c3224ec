import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing
import Threads

@testable import Playback

/// Real libmpg123 on real MP3s, compared sample for sample with Debian's `mpg123 -s` (the same
/// library's command-line player writing raw 16-bit PCM).
@Suite struct MPEGDecoderTests {
    /// Everything a decoder produces from where it stands to the end.
    static func decodeRest(_ decoder: any AudioDecoder) throws -> Data {
        var pcm = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
            if count == 0 { return pcm }
            pcm.append(contentsOf: buffer[..<count])
        }
    }

    /// `mpg123 -q -s FILE`: the reference decoding.
    static func reference(_ path: String) throws -> Data {
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/mpg123"), arguments: ["-q", "-s", path],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        guard result.status == 0 else { throw TestSupportError("mpg123 -s \(path) failed: \(result)") }
        return result.stdoutData
    }

    static let mpg123Present = FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123")

    @Test(.requires(mpg123Present, "mpg123 is not installed"))
    func decodesExactlyWhatMpg123DecodesInStereo() throws {
        let path = fixture("tone-44k-stereo.mp3").path
        let decoder = try MPEGDecoder(path: path)
        let pcm = try Self.decodeRest(decoder)
        #expect(pcm == (try Self.reference(path)))
        #expect(decoder.frameCount == pcm.count / decoder.format.bytesPerFrame)
    }

    @Test(.requires(mpg123Present, "mpg123 is not installed"))
    func decodesExactlyWhatMpg123DecodesInMono() throws {
        let path = fixture("noise-22k-mono.mp3").path
        #expect(try Self.decodeRest(try MPEGDecoder(path: path)) == (try Self.reference(path)))
    }

    /// After a seek, libmpg123's synthesis window starts afresh, and in MPEG-2/2.5 (one granule per
    /// frame, unlike MPEG-1's two) that can round a rare sample one step differently from a
    /// play-through. Seeks in MPEG-1 are exact (above); here they are within one step, rarely.
    @Test(arguments: [1_000, 30_000])
    func aSeekInMPEG2AudioIsWithinOneStepOfAPlayThrough(frame: Int) throws {
        let path = fixture("noise-22k-mono.mp3").path
        let whole = Self.samples(try Self.decodeRest(try MPEGDecoder(path: path)))
        let decoder = try MPEGDecoder(path: path)
        decoder.seek(toFrame: frame)
        let rest = Self.samples(try Self.decodeRest(decoder))
        #expect(rest.count == whole.count - frame)
        let differing = zip(rest, whole.dropFirst(frame)).filter { $0 != $1 }
        #expect(differing.allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        #expect(differing.count * 1_000 < rest.count)
    }

    static func samples(_ pcm: Data) -> [Int16] {
        pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test func knowsTheFormatAndTheExactDuration() throws {
        let stereo = try MPEGDecoder(path: fixture("tone-44k-stereo.mp3").path)
        #expect(stereo.format == AudioFormat(sampleRate: 44_100, channels: 2))
        // 3 s of sound, encoded by LAME with an Info header: gapless trimming gives it back exactly.
        #expect(stereo.frameCount == 132_300)
        #expect(stereo.duration == 3)
        let mono = try MPEGDecoder(path: fixture("noise-22k-mono.mp3").path)
        #expect(mono.format == AudioFormat(sampleRate: 22_050, channels: 1))
    }

    @Test(arguments: [0, 1, 1_152, 44_100, 100_000, 132_299])
    func aSeekLandsOnTheExactSampleOfAPlayThrough(frame: Int) throws {
        let path = fixture("tone-44k-stereo.mp3").path
        let whole = try Self.decodeRest(try MPEGDecoder(path: path))
        let decoder = try MPEGDecoder(path: path)
        decoder.seek(toFrame: frame)
        #expect(decoder.position == frame)
        let rest = try Self.decodeRest(decoder)
        #expect(rest == whole.dropFirst(frame * decoder.format.bytesPerFrame))
    }

    /// The scan finds the exact length of files whose headers say nothing or say it wrong: it
    /// equals what mpg123 decodes from them.
    @Test(
        .requires(mpg123Present && !CorpusPlaybackTests.files.isEmpty, "needs mpg123 and the corpus"),
        arguments: ["vbr-noheader-16k.mp3", "jfk-speech-128k.mp3", "sonata-id3v22-160k.mp3", "bladeenc-mono.mp3"])
    func theScanFindsTheExactLength(_ file: String) throws {
        let path = CorpusPlaybackTests.corpus.appendingPathComponent(file).path
        let decoder = try MPEGDecoder(path: path)
        let decoded = try Self.reference(path).count / decoder.format.bytesPerFrame
        #expect(decoder.frameCount == decoded)
    }

    /// Seeks in a row, as keys pressed quickly make them, land where the last one says (libmpg123
    /// alone decodes wrongly after a seek to 20,480 and then to 17,480 with no read between).
    @Test(arguments: [[20_480, 17_480], [5_000, 3_000], [100_000, 50_000, 70_000]])
    func seeksInARowLandWhereTheLastOneSays(_ frames: [Int]) throws {
        let path = fixture("tone-44k-stereo.mp3").path
        let whole = try Self.decodeRest(try MPEGDecoder(path: path))
        let decoder = try MPEGDecoder(path: path)
        for frame in frames { decoder.seek(toFrame: frame) }
        #expect(decoder.position == frames.last)
        #expect(try Self.decodeRest(decoder) == whole.dropFirst(frames.last! * 4))
    }

    @Test func aFileThatIsNotMPEGAudioIsSaidSo() throws {
        let path = fixture("not-audio.html").path
        #expect(throws: DecoderError.notAudio(path: path, what: "no MPEG audio frame could be decoded")) {
            try MPEGDecoder(path: path)
        }
        // Opened by what it is, it is said for what it is.
        #expect(throws: DecoderError.notAudio(path: path, what: "an HTML page")) { try AudioDecoders.open(path: path) }
        #expect(
            DecoderError.notAudio(path: "x.html", what: "an HTML page").description
                == "x.html is not audio (an HTML page)")
    }

    @Test func aMissingFileCannotBeOpened() {
        #expect(throws: DecoderError.self) { try MPEGDecoder(path: "/nonexistent/episode.mp3") }
    }
}

/// A file still being written (an episode streamed while it downloads).
@Suite struct GrowingFileDecoderTests {
    /// The writer's side of an arrival: it signals after each write and when it is done.
    final class Writer: Sendable {
        let done = Mutex(false)
        let changes = ChangeSignal()
        var isDone: Bool { done.withLock { $0 } }
        var arrival: Arrival { Arrival(changes: changes, isOver: { self.isDone }) }

        func finish() {
            done.withLock { $0 = true }
            changes.signal()
        }
    }

    @Test(.requires(MPEGDecoderTests.mpg123Present, "mpg123 is not installed"))
    func aFileIsDecodedAsItArrivesAndEndsOnlyWhenTheWriterIsDone() throws {
        let source = try Data(contentsOf: fixture("tone-44k-stereo.mp3"))
        let directory = try TemporaryDirectory()
        let path = directory.appending("episode.mp3.part").path
        let firstPart = source.count / 5
        try source.prefix(firstPart).write(to: URL(fileURLWithPath: path))
        let writer = Writer()
        let decoder = try MPEGDecoder(growingFile: path, arrival: writer.arrival)
        #expect(decoder.frameCount == nil)
        let seekableEarly = try #require(decoder.seekableFrames)
        #expect(seekableEarly < 132_300 / 2)

        let rest = source.dropFirst(firstPart)
        DispatchQueue.global().async {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            for start in stride(from: rest.startIndex, to: rest.endIndex, by: 4_096) {
                Thread.sleep(forTimeInterval: 0.01)
                handle.write(rest[start..<min(start + 4_096, rest.endIndex)])
                writer.changes.signal()
            }
            handle.closeFile()
            writer.finish()
        }
        #expect(
            try MPEGDecoderTests.decodeRest(decoder)
                == (try MPEGDecoderTests.reference(fixture("tone-44k-stereo.mp3").path)))
        #expect(writer.isDone)
    }

    @Test func seeksGoNoFurtherThanWhatHasArrived() throws {
        let source = try Data(contentsOf: fixture("tone-44k-stereo.mp3"))
        let directory = try TemporaryDirectory()
        let path = directory.appending("episode.mp3.part").path
        try source.prefix(source.count / 2).write(to: URL(fileURLWithPath: path))
        let decoder = try MPEGDecoder(growingFile: path, arrival: Arrival(changes: ChangeSignal(), isOver: { true }))
        var buffer = [UInt8](repeating: 0, count: 4_096 * 4)
        _ = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
        let seekable = try #require(decoder.seekableFrames)
        // Half the bytes hold about half of the 132,300 frames.
        #expect(seekable > 132_300 / 3 && seekable < 132_300 * 2 / 3, "\(seekable) frames, at \(decoder.position)")
    }
}
