import Foundation
import Synchronization

/// Audio in every format podcli plays, made at test time by Debian's `ffmpeg` from a source it
/// synthesizes (a 20 s chirp in each channel: never periodic, so a misplaced seek cannot match
/// by chance), once per test process; and `ffmpeg`'s own decoding of a file, the reference the
/// tests compare podcli's output with.
public final class AudioFixtures: Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        /// AAC-LC in M4A as ffmpeg writes it: the index (`moov`) after the audio.
        case aacIndexLast = "aac-index-last.m4a"
        /// AAC-LC in M4A, index first (`-movflags +faststart`).
        case aacIndexFirst = "aac-index-first.m4a"
        /// Mono, 22.05 kHz AAC-LC in M4A.
        case aacMono22k = "aac-mono-22k.m4a"
        /// Raw AAC in ADTS frames.
        case adts = "adts.aac"
        case opus = "opus.opus"
        case vorbis = "vorbis.ogg"
        case flac = "flac.flac"
        case alac = "alac.m4a"
        // Broken ones.
        /// The first half of `aacIndexFirst`.
        case truncated = "truncated.m4a"
        /// One second of MPEG-4 video and no audio.
        case videoOnly = "video-only.mp4"
        /// AAC encrypted with CENC (AES-CTR), as DRM'd stores sell it.
        case encrypted = "encrypted.m4a"
        /// `opus` with one byte of a page in the middle flipped.
        case brokenPage = "broken-page.opus"
        /// `aacIndexFirst` whose sample entry claims a codec no decoder knows ('zzzz').
        case unknownCodec = "unknown-codec.m4a"
        /// A stream of a single MPEG-1 Layer II frame: 24 ms at 48 kHz, mono.
        case singleFrameMP2 = "single-frame.mp2"
        /// FLAC in Ogg, as ffmpeg writes it (the source of `hugeGranuleFLAC`).
        case flacInOgg = "flac-in-ogg.oga"
        /// AAC-LC in a fragmented MP4: an index with empty sample tables, the samples in fragments after it.
        case aacFragmented = "aac-fragmented.m4a"
        /// Five minutes, mono, of noise bursts over a low tone (`longSource`): Vorbis switches
        /// between its long and short blocks at every burst. For seeks far into a file.
        case longVorbis = "long-vorbis.ogg"
        case longOpus = "long-opus.opus"
        case longAAC = "long-aac.m4a"
        // Hostile ones (issue 22), each page's checksum made again after the patch.
        /// `opus`, `vorbis` and `flacInOgg` whose last page's granule is 2⁶³ - 1: a length no file has.
        case hugeGranuleOpus = "huge-granule.opus"
        case hugeGranuleVorbis = "huge-granule.ogg"
        case hugeGranuleFLAC = "huge-granule.oga"
        /// `opus`, `vorbis` and `flacInOgg` whose middle page's granule is 2⁶² - 1 (the most
        /// FFmpeg takes from Opus): the timestamps after it are near 2⁶², as after a seek onto
        /// the last page of the `hugeGranule` files.
        case wildGranuleOpus = "wild-granule.opus"
        case wildGranuleVorbis = "wild-granule.ogg"
        case wildGranuleFLAC = "wild-granule.oga"
        /// `opus` cut after its two header pages, the second marked as the stream's last: no audio.
        case headersOnly = "headers-only.opus"
        /// `flac` whose stream information says its largest block is 0 samples.
        case zeroBlockSize = "zero-block-size.flac"
        /// `aacIndexFirst` whose sample table counts 0 sample descriptions ('stsd'), 0 samples
        /// ('stsz'), more samples than its table holds, 0 chunks ('stco'), or more chunks than it holds.
        case noSampleDescription = "stsd-0.m4a"
        case noSamples = "stsz-0.m4a"
        case tooManySamples = "stsz-100000.m4a"
        case noChunks = "stco-0.m4a"
        case tooManyChunks = "stco-100000.m4a"

        /// The formats that play.
        public static let playable: [Kind] = [
            .aacIndexLast, .aacIndexFirst, .aacMono22k, .adts, .opus, .vorbis, .flac, .alac,
        ]
        public static let broken: [Kind] = [
            .truncated, .videoOnly, .encrypted, .brokenPage, .unknownCodec, .headersOnly, .zeroBlockSize,
            .noSampleDescription, .noSamples, .tooManySamples, .noChunks, .tooManyChunks,
        ]
        /// Files that play, but whose last Ogg granule says they last 2⁶³ - 1 samples.
        public static let hugeGranule: [Kind] = [.hugeGranuleOpus, .hugeGranuleVorbis, .hugeGranuleFLAC]
        public static let wildGranule: [Kind] = [.wildGranuleOpus, .wildGranuleVorbis, .wildGranuleFLAC]
        public static let long: [Kind] = [.longVorbis, .longOpus, .longAAC]

        /// Rate and channels of the decoded PCM.
        public var sampleRate: Int {
            switch self {
            case .aacMono22k: 22_050
            case .opus, .brokenPage, .hugeGranuleOpus, .wildGranuleOpus, .headersOnly, .longOpus: 48_000
            default: 44_100
            }
        }
        public var channels: Int { self == .aacMono22k || Kind.long.contains(self) ? 1 : 2 }
    }

    public static let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")

    /// Why the fixtures cannot be made here; nil when they can, and always nil in CI, where a
    /// missing ffmpeg must fail the tests rather than skip them.
    public static var unavailableReason: String? {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return nil }
        return FileManager.default.isExecutableFile(atPath: ffmpeg.path) ? nil : "ffmpeg is not installed"
    }

    public static let shared = AudioFixtures()

    /// Seconds of the source.
    public static let seconds = 20

    private let directory: URL
    private let made = Mutex<Set<String>>([])

    /// One directory for every test process on the machine, named after the ffmpeg that fills it
    /// (a static is never deinitialized, so a directory per process would stay behind): each
    /// file is made once, by the first process to want it, and renamed into place whole.
    private init() {
        let stamp =
            (try? FileManager.default.attributesOfItem(atPath: Self.ffmpeg.path)[.modificationDate] as? Date)
            .map { Int($0.timeIntervalSince1970) } ?? 0
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("podcli-audio-fixtures-\(stamp)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The file of `kind`, made on first use.
    public func url(_ kind: Kind) throws -> URL {
        // What it is made from, made first (not under the lock `make` holds).
        let input: URL
        switch kind {
        case .truncated, .unknownCodec, .noSampleDescription, .noSamples, .tooManySamples, .noChunks, .tooManyChunks:
            input = try url(.aacIndexFirst)
        case .brokenPage, .hugeGranuleOpus, .wildGranuleOpus, .headersOnly: input = try url(.opus)
        case .hugeGranuleVorbis, .wildGranuleVorbis: input = try url(.vorbis)
        case .hugeGranuleFLAC, .wildGranuleFLAC: input = try url(.flacInOgg)
        case .zeroBlockSize: input = try url(.flac)
        case .aacMono22k: input = try source(mono: true)
        case .longVorbis, .longOpus, .longAAC: input = try longSource()
        default: input = try source()
        }
        return try make(kind.rawValue) { output in
            func encode(_ options: [String]) throws { try run(["-i", input.path] + options + [output.path]) }
            switch kind {
            case .aacIndexLast: try encode(["-c:a", "aac", "-b:a", "64k"])
            case .aacIndexFirst: try encode(["-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart"])
            case .aacMono22k: try encode(["-c:a", "aac", "-b:a", "32k"])
            case .adts: try encode(["-c:a", "aac", "-b:a", "64k", "-f", "adts"])
            case .opus: try encode(["-c:a", "libopus", "-b:a", "48k"])
            case .vorbis: try encode(["-c:a", "libvorbis", "-q:a", "3"])
            case .longVorbis: try encode(["-c:a", "libvorbis", "-q:a", "0"])
            case .longOpus: try encode(["-c:a", "libopus", "-b:a", "32k"])
            // Without perceptual noise substitution: the decoder makes those bands' noise from a
            // state a seek starts afresh, so no seek could give the play-through's samples there.
            case .longAAC: try encode(["-c:a", "aac", "-b:a", "48k", "-aac_pns", "0"])
            case .flac: try encode(["-c:a", "flac"])
            case .flacInOgg: try encode(["-c:a", "flac", "-f", "ogg"])
            case .aacFragmented: try encode(["-c:a", "aac", "-b:a", "64k", "-movflags", "frag_keyframe+empty_moov"])
            case .alac: try encode(["-c:a", "alac"])
            case .truncated:
                let whole = try Data(contentsOf: input)
                try whole.prefix(whole.count / 2).write(to: output)
            case .singleFrameMP2:
                try run([
                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "0.024", "-c:a", "mp2",
                    output.path,
                ])
            case .videoOnly:
                try run(["-f", "lavfi", "-i", "testsrc=size=64x64:rate=10", "-t", "1", "-c:v", "mpeg4", output.path])
            case .encrypted:
                try encode(
                    [
                        "-c:a", "aac", "-encryption_scheme", "cenc-aes-ctr", "-encryption_key",
                        "76a6c65c5ea762046bd749a2e632ccbb", "-encryption_kid", "a7e61c373e219033c21091fa607bf3b8",
                    ])
            case .brokenPage:
                var bytes = [UInt8](try Data(contentsOf: input))
                bytes[bytes.count / 2] ^= 0xFF
                try Data(bytes).write(to: output)
            case .unknownCodec:
                var bytes = [UInt8](try Data(contentsOf: input))
                let entry = try Self.find(Array("mp4a".utf8), in: bytes)
                bytes.replaceSubrange(entry..<(entry + 4), with: Array("zzzz".utf8))
                try Data(bytes).write(to: output)
            case .hugeGranuleOpus, .hugeGranuleVorbis, .hugeGranuleFLAC, .wildGranuleOpus, .wildGranuleVorbis,
                .wildGranuleFLAC:
                var bytes = [UInt8](try Data(contentsOf: input))
                let pages = try Self.oggPages(bytes)
                guard let last = pages.last else { throw TestSupportError("no Ogg page in \(input.path)") }
                let huge = Kind.hugeGranule.contains(kind)
                let page = huge ? last : pages[pages.count / 2]
                let granule = (page.lowerBound + 6)..<(page.lowerBound + 14)
                let value = huge ? Int64.max : 1 << 62 - 1
                bytes.replaceSubrange(granule, with: withUnsafeBytes(of: value.littleEndian, Array.init))
                Self.checksumOggPage(&bytes, page)
                try Data(bytes).write(to: output)
            case .headersOnly:
                var bytes = [UInt8](try Data(contentsOf: input))
                let tags = try Self.oggPages(bytes)[1]
                bytes.removeSubrange(tags.upperBound...)
                bytes[tags.lowerBound + 5] |= 0x04  // end of stream
                Self.checksumOggPage(&bytes, tags)
                try Data(bytes).write(to: output)
            case .zeroBlockSize:
                // "fLaC", the STREAMINFO block's header, its smallest block size, then its largest.
                var bytes = [UInt8](try Data(contentsOf: input))
                bytes.replaceSubrange(10..<12, with: [0, 0])
                try Data(bytes).write(to: output)
            case .noSampleDescription: try Self.setCount(of: "stsd", at: 4, to: 0, from: input, to: output)
            case .noSamples: try Self.setCount(of: "stsz", at: 8, to: 0, from: input, to: output)
            case .tooManySamples: try Self.setCount(of: "stsz", at: 8, to: 100_000, from: input, to: output)
            case .noChunks: try Self.setCount(of: "stco", at: 4, to: 0, from: input, to: output)
            case .tooManyChunks: try Self.setCount(of: "stco", at: 4, to: 100_000, from: input, to: output)
            }
        }
    }

    /// What `ffmpeg -i FILE -f s16le -acodec pcm_s16le -` decodes: the reference.
    public static func reference(_ file: URL) throws -> Data {
        let result = try RunningProcess(
            executable: ffmpeg,
            arguments: ["-v", "error", "-i", file.path, "-f", "s16le", "-acodec", "pcm_s16le", "-"],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        guard result.status == 0 else { throw TestSupportError("ffmpeg could not decode \(file.path): \(result)") }
        return result.stdoutData
    }

    /// A FLAC file whose metadata is right and whose audio begins with a frame's sync code (so a
    /// download's check takes it), then is random bytes, which no decoder plays: "fLaC", the
    /// stream information of `.flac` as the last metadata block, the sync code, then noise in
    /// which no other frame begins (no byte is 0xFF).
    public func flacWithNoise() throws -> Data {
        var bytes = [UInt8](try Data(contentsOf: try url(.flac)).prefix(42))
        bytes[4] |= 0x80
        var generator = SystemRandomNumberGenerator()
        bytes += [0xFF, 0xF8] + (0..<200_000).map { _ in UInt8.random(in: 0...0xFE, using: &generator) }
        return Data(bytes)
    }

    /// What `ffmpeg -af ebur128=peak=true` says of `path`: its summary's integrated loudness (I)
    /// and true peak (Peak).
    public static func ebur128(_ path: String) throws -> (integrated: Double, truePeak: Double) {
        let result = try RunningProcess(
            executable: AudioFixtures.ffmpeg,
            arguments: ["-nostats", "-nostdin", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit(timeout: 120)
        guard result.status == 0, let summary = result.stderr.range(of: "Summary:") else {
            throw TestSupportError("ffmpeg ebur128 failed on \(path): \(result)")
        }
        func value(_ label: String) throws -> Double {
            let text = result.stderr[summary.upperBound...]
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let line = lines.first(where: { $0.hasPrefix(label) }),
                let number = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
            else { throw TestSupportError("no \(label) in ffmpeg's summary: \(text)") }
            return number
        }
        return (try value("I:"), try value("Peak:"))
    }

    /// Runs `ffmpeg` quietly with `arguments`, overwriting its output: a test's own fixture.
    public static func runFFmpeg(_ arguments: [String]) throws {
        let result = try RunningProcess(
            executable: ffmpeg, arguments: ["-v", "error", "-nostdin", "-y"] + arguments,
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit(timeout: 120)
        guard result.status == 0 else { throw TestSupportError("ffmpeg \(arguments) failed: \(result)") }
    }

    /// The source: a chirp in each channel, 44.1 kHz stereo or 22.05 kHz mono, as WAV.
    public func source(mono: Bool = false) throws -> URL {
        try make(mono ? "source-mono.wav" : "source.wav") { output in
            let left = "0.4*sin(2*PI*(200*t+30*t*t))"
            let right = "0.4*sin(2*PI*(300*t+20*t*t))"
            let expression =
                mono
                ? "aevalsrc=\(left):s=22050:d=\(Self.seconds)"
                : "aevalsrc=\(left)|\(right):s=44100:d=\(Self.seconds)"
            try run(["-f", "lavfi", "-i", expression, "-c:a", "pcm_s16le", output.path])
        }
    }

    /// Seconds of `longSource`.
    public static let longSeconds = 300

    /// The long source: white noise bursts (0.11 s in every 0.37 s, sharp edges) over a 330 Hz
    /// tone, so no stretch is silent, 44.1 kHz mono, as WAV.
    public func longSource() throws -> URL {
        try make("source-long.wav") { output in
            try run([
                "-f", "lavfi", "-i", "anoisesrc=d=\(Self.longSeconds):c=white:r=44100:a=0.4:seed=7",
                "-f", "lavfi", "-i", "sine=f=330:r=44100:d=\(Self.longSeconds)",
                "-filter_complex", "[0]volume='lt(mod(t,0.37),0.11)':eval=frame[bursts];[bursts][1]amix=inputs=2",
                "-ac", "1", "-c:a", "pcm_s16le", output.path,
            ])
        }
    }

    private func run(_ arguments: [String]) throws {
        try Self.runFFmpeg(arguments)
    }

    /// Makes `name` once (tests run in parallel: the first to ask makes it, under the lock).
    private func make(_ name: String, _ body: (URL) throws -> Void) throws -> URL {
        let file = directory.appendingPathComponent(name)
        try made.withLock { made in
            guard !made.contains(name) else { return }
            if FileManager.default.fileExists(atPath: file.path) {
                made.insert(name)
                return
            }
            let partial = directory.appendingPathComponent(".\(getpid()).\(name).part.\(file.pathExtension)")
            try body(partial)
            _ = rename(partial.path, file.path)
            made.insert(name)
        }
        return file
    }

    /// Writes `input` to `output` with the 32-bit field `offset` bytes into the first `box`'s
    /// content (after its version and flags, a count) set to `count`.
    private static func setCount(of box: String, at offset: Int, to count: UInt32, from input: URL, to output: URL)
        throws
    {
        var bytes = [UInt8](try Data(contentsOf: input))
        let field = try find(Array(box.utf8), in: bytes) + 4 + offset
        bytes.replaceSubrange(field..<(field + 4), with: withUnsafeBytes(of: count.bigEndian, Array.init))
        try Data(bytes).write(to: output)
    }

    /// Where each Ogg page of `bytes` lies (RFC 3533: 27 bytes of header, the lacing values, the body).
    public static func oggPages(_ bytes: [UInt8]) throws -> [Range<Int>] {
        var pages: [Range<Int>] = []
        var offset = 0
        while offset + 27 <= bytes.count {
            guard bytes[offset..<(offset + 4)].elementsEqual("OggS".utf8) else {
                throw TestSupportError("no Ogg page at \(offset)")
            }
            let lacing = bytes[(offset + 27)..<(offset + 27 + Int(bytes[offset + 26]))]
            let end = offset + 27 + lacing.count + lacing.reduce(0) { $0 + Int($1) }
            pages.append(offset..<end)
            offset = end
        }
        return pages
    }

    /// Stores the page's CRC (RFC 3533: polynomial 0x04C11DB7, unreflected, over the page with
    /// its checksum field zeroed), computed here bit by bit rather than by the code under test.
    public static func checksumOggPage(_ bytes: inout [UInt8], _ page: Range<Int>) {
        let field = (page.lowerBound + 22)..<(page.lowerBound + 26)
        bytes.replaceSubrange(field, with: [0, 0, 0, 0])
        var crc: UInt32 = 0
        for byte in bytes[page] {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        bytes.replaceSubrange(field, with: withUnsafeBytes(of: crc.littleEndian, Array.init))
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) throws -> Int {
        guard
            let index = (0...(bytes.count - needle.count)).first(where: {
                bytes[$0..<($0 + needle.count)].elementsEqual(needle)
            })
        else { throw TestSupportError("no \(needle) in the file") }
        return index
    }
}
