import AudioFormats
import Dispatch
import Foundation
import TestSupport
import Testing
import Threads

@testable import Playback

/// Real FFmpeg (libavformat, libavcodec, libswresample, loaded on first use) on files Debian's
/// `ffmpeg` made, compared with what the `ffmpeg` command itself decodes.
@Suite(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
struct FFmpegDecoderTests {
    typealias Kind = AudioFixtures.Kind

    static func open(_ kind: Kind) throws -> any AudioDecoder {
        try AudioDecoders.open(path: try AudioFixtures.shared.url(kind).path)
    }

    /// The next `byteCount` bytes the decoder gives, fewer at the end.
    static func read(_ byteCount: Int, from decoder: any AudioDecoder) throws -> Data {
        var buffer = [UInt8](repeating: 0, count: byteCount)
        var heard = Data()
        while heard.count < byteCount {
            let left = byteCount - heard.count
            let count = try buffer.withUnsafeMutableBytes {
                try decoder.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<left]))
            }
            guard count > 0 else { break }
            heard.append(contentsOf: buffer[..<count])
        }
        return heard
    }

    /// The whole file: exactly the `ffmpeg` command's decoding, at the stream's own rate and
    /// channels. The `ffmpeg` command does not apply the end of an MP4's edit list: it also plays
    /// the encoder's padding after the last sample (up to one AAC frame, 1024 samples), which
    /// podcli trims, as it trims an MP3's (and as the priming at the start both trim).
    @Test(arguments: Kind.playable)
    func decodesWhatTheFfmpegCommandDecodes(_ kind: Kind) throws {
        let decoder = try Self.open(kind)
        #expect(decoder is FFmpegDecoder)
        #expect(decoder.format == AudioFormat(sampleRate: kind.sampleRate, channels: kind.channels))
        let pcm = try MPEGDecoderTests.decodeRest(decoder)
        let reference = try AudioFixtures.reference(try AudioFixtures.shared.url(kind))
        let bytesPerFrame = decoder.format.bytesPerFrame
        #expect(decoder.frameCount == pcm.count / bytesPerFrame)
        switch kind {
        case .aacIndexLast, .aacIndexFirst, .aacMono22k:
            #expect(pcm == reference.prefix(pcm.count))
            #expect(pcm.count < reference.count && reference.count - pcm.count < 1024 * bytesPerFrame)
        default:
            #expect(pcm == reference)
        }
    }

    /// The source is 20 s long: an MP4's edit list, an Ogg stream's last granule (less Opus's
    /// pre-skip) and FLAC's stream information say so to the frame. Raw AAC has no such
    /// record: its length is what its frames decode to, whole 1024-sample frames.
    @Test(arguments: Kind.playable)
    func theLengthIsExactToTheFrame(_ kind: Kind) throws {
        let decoder = try Self.open(kind)
        let length = try #require(decoder.frameCount)
        if kind == .adts {
            #expect(length % 1024 == 0 && abs(length - 20 * kind.sampleRate) < 2048)
        } else {
            #expect(length == AudioFixtures.seconds * kind.sampleRate)
        }
    }

    /// `--from 10 --for 5`: a seek lands on the frame asked for (the alignment with the
    /// `ffmpeg` command's decoding is sought within ±20 ms and must be 0, so within 10 ms holds
    /// with room), and what follows is the play-through's to the last bit for FLAC and Vorbis
    /// and within a few steps of 32,768 for AAC and Opus, whose decoders start afresh.
    @Test(arguments: Kind.playable)
    func aSeekLandsOnTheFrameAskedFor(_ kind: Kind) throws {
        let decoder = try Self.open(kind)
        let rate = decoder.format.sampleRate
        let channels = decoder.format.channels
        decoder.seek(toFrame: 10 * rate)
        #expect(decoder.position == 10 * rate)
        let wanted = 5 * rate * decoder.format.bytesPerFrame
        let heard = try Self.read(wanted, from: decoder)
        #expect(heard.count == wanted)
        #expect(decoder.position == 15 * rate)
        let reference = try AudioFixtures.reference(try AudioFixtures.shared.url(kind))
        let (offset, largest) = PCMComparison.alignment(
            of: heard, in: reference, startingAt: 10 * rate, channels: channels, sampleRate: rate, reach: rate / 50)
        #expect(offset == 0, "\(kind): the seek landed \(offset) frames off")
        let tolerance = kind == .flac || kind == .vorbis || kind == .alac ? 0 : 8
        #expect(largest <= tolerance, "\(kind): \(largest) steps off")
    }

    /// Seeks far into a five-minute file (issue 23: in Vorbis, `--from 60` and `--from 150`
    /// landed 448 frames early, 73.3 s and 200.5 s exactly) land on the frame asked for: the
    /// alignment with the `ffmpeg` command's decoding of the whole file is 0 within ±20 ms, and
    /// what follows is the play-through's (to the bit for Vorbis, within a few steps for AAC and
    /// Opus, whose decoders start afresh).
    @Test(arguments: Kind.long)
    func aSeekFarIntoALongFileLandsOnTheFrameAskedFor(_ kind: Kind) throws {
        let reference = try AudioFixtures.reference(try AudioFixtures.shared.url(kind))
        let rate = kind.sampleRate
        let wanted = rate * 3 / 2 * kind.channels * 2
        // The issue's four, then one every 7.3 s: some land in the short Vorbis blocks after a
        // long one, which FFmpeg's Ogg reader times 448 frames late.
        for seconds in [60, 150, 73.3, 200.5] + stride(from: 3.1, to: 297, by: 7.3) {
            let decoder = try Self.open(kind)
            let target = Int(seconds * Double(rate))
            decoder.seek(toFrame: target)
            let heard = try Self.read(wanted, from: decoder)
            #expect(heard.count == wanted, "\(kind) at \(seconds) s")
            let (offset, largest) = PCMComparison.alignment(
                of: heard, in: reference, startingAt: target, channels: kind.channels, sampleRate: rate,
                reach: rate / 50)
            #expect(offset == 0, "\(kind): the seek to \(seconds) s landed \(offset) frames off")
            #expect(largest <= (kind == .longVorbis ? 0 : 8), "\(kind) at \(seconds) s: \(largest) steps off")
        }
    }

    /// Played while it downloads: the same PCM as the complete file, the length of an MP4 known
    /// from its index before the end arrives, seeks only as far as what is on disk.
    @Test(arguments: [Kind.aacIndexFirst, .opus, .flac])
    func aFileIsDecodedAsItArrives(_ kind: Kind) throws {
        let source = try Data(contentsOf: AudioFixtures.shared.url(kind))
        let directory = try TemporaryDirectory()
        let path = directory.appending("episode.part").path
        let firstPart = max(16 * 1024, source.count / 5)
        try source.prefix(firstPart).write(to: URL(fileURLWithPath: path))
        let writer = GrowingFileDecoderTests.Writer()
        let rest = source.dropFirst(firstPart)
        // The rest arrives while the decoder opens (FFmpeg may read ahead to learn the stream)
        // and plays: about 1.6 MB/s.
        DispatchQueue.global().async {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            for start in stride(from: rest.startIndex, to: rest.endIndex, by: 16 * 1024) {
                Thread.sleep(forTimeInterval: 0.01)
                handle.write(rest[start..<min(start + 16 * 1024, rest.endIndex)])
                writer.changes.signal()
            }
            handle.closeFile()
            writer.finish()
        }
        let decoder = try AudioDecoders.open(growingFile: path, arrival: writer.arrival)
        #expect(decoder.frameCount == (kind == .aacIndexFirst ? 20 * kind.sampleRate : nil))
        if !writer.isDone {
            let seekable = try #require(decoder.seekableFrames)
            #expect(seekable < 20 * kind.sampleRate, "\(kind): \(seekable)")
        }
        let whole = try MPEGDecoderTests.decodeRest(try Self.open(kind))
        #expect(try MPEGDecoderTests.decodeRest(decoder) == whole)
        // An Ogg or FLAC stream ends only at the end of the file, once the writer is done. An
        // MP4's index says where its last sample ends: it may end as soon as that has arrived,
        // before the writer says it is done (a loaded machine saw it).
        if kind != .aacIndexFirst { #expect(writer.isDone) }
    }

    /// An Ogg stream whose last granule is 2⁶³ - 1 (issue 22: the length's arithmetic overflowed
    /// and trapped): its length is unknown, and it plays all the same, as the `ffmpeg` command
    /// decodes it.
    @Test(arguments: Kind.hugeGranule)
    func anImpossibleLastGranuleIsAnUnknownLength(_ kind: Kind) throws {
        let decoder = try Self.open(kind)
        #expect(decoder.frameCount == nil)
        let pcm = try MPEGDecoderTests.decodeRest(decoder)
        let reference = try AudioFixtures.reference(try AudioFixtures.shared.url(kind))
        // Compared as one Bool: a failing comparison of two 3.5 MB values is diffed for minutes.
        let same = pcm == reference
        #expect(same, "\(pcm.count) bytes decoded, \(reference.count) by the ffmpeg command")
        let frames = pcm.count / decoder.format.bytesPerFrame
        #expect(abs(frames - AudioFixtures.seconds * kind.sampleRate) < kind.sampleRate / 10)
    }

    /// Seeks in those files and in ones whose timestamps jump to near 2⁶² in the middle
    /// (issue 22 review: a timestamp that far made the frame arithmetic after a seek overflow
    /// and trap): to the middle, to just before the end and past it, as `--from` or a saved
    /// position does. The rest plays from there, no longer than the file, and the position
    /// counts on from the target.
    @Test(arguments: Kind.hugeGranule + Kind.wildGranule)
    func aSeekInAFileWithImpossibleTimestampsLandsWhereAsked(_ kind: Kind) throws {
        let rate = kind.sampleRate
        let end = AudioFixtures.seconds * rate
        for target in [10 * rate, 12 * rate, end - rate / 20, end + rate] {
            let decoder = try Self.open(kind)
            decoder.seek(toFrame: target)
            let landing = decoder.frameCount.map { min(target, $0) } ?? target
            #expect(decoder.position == landing)
            let frames = try MPEGDecoderTests.decodeRest(decoder).count / decoder.format.bytesPerFrame
            // After a seek onto its last page, FFmpeg's FLAC-in-Ogg reader gives about a second
            // of frames past the end before it ends: bounded, not the 2⁶³ its granule says.
            #expect(frames <= max(0, end - target) + rate, "\(kind) from \(target): \(frames)")
            if Kind.hugeGranule.contains(kind) && target < end {
                #expect(frames >= end - target - rate / 10, "\(kind) from \(target): \(frames)")
            }
            #expect(decoder.position == landing + frames, "\(kind) from \(target)")
        }
    }

    /// The check a download gets (`AudioFileCheck`) judges as the player does (issue 22: `fetch`
    /// kept 77 of 199 hostile files that `play` then refused): what the player refuses, the
    /// check refuses, and what plays passes. The check is stricter only where the player would
    /// play part of a file (cut short, a damaged page, a codec FFmpeg guesses from elsewhere).
    @Test(arguments: Kind.broken + Kind.playable + Kind.hugeGranule + [.aacFragmented, .flacInOgg])
    func theCheckAtDownloadRefusesWhatThePlayerRefuses(_ kind: Kind) throws {
        let path = try AudioFixtures.shared.url(kind).path
        let bytes = try #require(FileBytes(path: path))
        let verdict = AudioSniffer.verdict(bytes.bytes(at: 0, count: AudioSniffer.windowSize))
        guard case .audio(let container) = verdict else {
            Issue.record("\(kind) is not sniffed as audio")
            return
        }
        let checked = AudioFileCheck.problem(in: bytes, container: container)
        let played = Result { try MPEGDecoderTests.decodeRest(try AudioDecoders.open(path: path)) }
        let playerRefuses = (try? played.get().isEmpty) ?? true
        if playerRefuses { #expect(checked != nil, "\(kind): the player refuses it (\(played)), the check does not") }
        if !Kind.broken.contains(kind) {
            #expect(
                checked == nil && !playerRefuses,
                "\(kind): the check says \(checked ?? "nothing"), the player \(played)")
        }
    }

    @Test func aFileWithNoAudioIsSaidSo() throws {
        let video = try AudioFixtures.shared.url(.videoOnly).path
        #expect(throws: DecoderError.unplayable(path: video, reason: "it has no audio track")) {
            try AudioDecoders.open(path: video)
        }
    }
}
