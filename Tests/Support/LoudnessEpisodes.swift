import Foundation
import Synchronization

/// Episodes at known loudness, made by `ffmpeg` (FLAC, mono, 44.1 kHz), and `ffmpeg -af
/// ebur128=peak=true`'s reading of what was played: the meter the loudness tests trust, not the
/// code under test.
public enum LoudnessEpisodes: String, CaseIterable, Sendable {
    /// Speech-like (pink noise in syllables and phrases, a tone with vibrato, a pause every 4.3 s) with
    /// a 20 ms click every 5.3 s: −27 LUFS, true peak near −7 dBTP, so +11 dB needs the limiter.
    case quiet = "quiet-27.flac"
    /// The same speech without the clicks, lifted to −11 LUFS and limited (by `ffmpeg`'s sample
    /// peak limiter): true peak near 0 dBTP.
    case loud = "loud-11.flac"
    /// The speech at −40 LUFS: +24 dB would be needed, +12 is the most given.
    case veryQuiet = "very-quiet-40.flac"
    /// Pink noise at a steady level, −26 LUFS.
    case steady = "steady-26.flac"

    public static let sampleRate = 44_100

    /// The speech, at `ffmpeg`'s full scale (about −18 LUFS); with `clicks`, the clicks added.
    private static func speech(seconds: Int, clicks: Bool) -> String {
        let phrase = "gt(mod(t\\,4.3)\\,0.7)"
        let syllables = "val(0)*(0.3+0.7*abs(sin(2*PI*2.7*t)))*\(phrase)"
        let tone = "0.25*sin(2*PI*180*t+8*sin(PI*t))*\(phrase)*abs(sin(2*PI*3.1*t))"
        let click = clicks ? "+0.9*sin(2*PI*1500*t)*lt(mod(t\\,5.3)\\,0.02)" : ""
        return "anoisesrc=color=pink:seed=7:sample_rate=\(sampleRate):duration=\(seconds):amplitude=0.5,"
            + "aeval='\(syllables)+\(tone)\(click)',highpass=f=100,lowpass=f=7000"
    }

    /// The `ffmpeg` source and the gain (measured once: the fixtures are the same every time)
    /// that bring it to the loudness named.
    private var source: String {
        switch self {
        case .quiet: Self.speech(seconds: 75, clicks: true) + ",volume=-9.6dB"
        case .loud: Self.speech(seconds: 75, clicks: false) + ",volume=7.2dB,alimiter=limit=0.93:level=false"
        case .veryQuiet: Self.speech(seconds: 20, clicks: false) + ",volume=-22.1dB"
        case .steady: "anoisesrc=color=pink:seed=3:sample_rate=\(Self.sampleRate):duration=40:amplitude=0.271"
        }
    }

    private static let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "podcli-loudness-episodes-4")
    private static let made = Mutex<Set<String>>([])

    /// The file, made on first use (once for every test process on the machine: renamed into place whole).
    public func url() throws -> URL {
        let file = Self.directory.appendingPathComponent(rawValue)
        try Self.made.withLock { made in
            guard !made.contains(rawValue) else { return }
            defer { made.insert(rawValue) }
            guard !FileManager.default.fileExists(atPath: file.path) else { return }
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            let partial = Self.directory.appendingPathComponent(".\(getpid()).\(rawValue)")
            try Self.ffmpeg([
                "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", source, "-c:a", "flac", "-f", "flac",
                partial.path,
            ])
            _ = rename(partial.path, file.path)
        }
        return file
    }

    /// What `ffmpeg -af ebur128=peak=true` reads: the integrated loudness, the true peak, and the
    /// short-term loudness every 100 ms.
    public struct Reading: Sendable {
        public var integratedLUFS: Double
        public var truePeakDBTP: Double
        /// (seconds, LUFS) from the meter's log.
        public var shortTerm: [(time: Double, lufs: Double)]
    }

    /// `ffmpeg`'s reading of `file`.
    public static func measure(_ file: URL) throws -> Reading { try measure(["-i", file.path]) }

    /// `ffmpeg`'s reading of raw 16-bit PCM (a capture), from `seconds` on.
    public static func measure(raw file: URL, channels: Int = 1, from seconds: Double = 0) throws -> Reading {
        try measure(["-ss", "\(seconds)", "-f", "s16le", "-ar", "\(sampleRate)", "-ac", "\(channels)", "-i", file.path])
    }

    private static func measure(_ input: [String]) throws -> Reading {
        let log = try ffmpeg(["-nostats", "-nostdin"] + input + ["-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = log.components(separatedBy: "Summary:").last ?? ""
        func value(after label: String, in text: String) -> Double? {
            guard let range = text.range(of: label) else { return nil }
            return Double(text[range.upperBound...].trimmingCharacters(in: .whitespaces).prefix { $0 != " " })
        }
        guard let integrated = value(after: "I:", in: summary), let peak = value(after: "Peak:", in: summary) else {
            throw TestSupportError("no ebur128 summary from ffmpeg: \(log.suffix(2_000))")
        }
        let shortTerm = log.split(separator: "\n").compactMap { line -> (Double, Double)? in
            let text = String(line)
            guard let time = value(after: " t: ", in: text), let lufs = value(after: " S: ", in: text) else {
                return nil
            }
            return (time, lufs)
        }
        return Reading(integratedLUFS: integrated, truePeakDBTP: peak, shortTerm: shortTerm)
    }

    /// Runs `ffmpeg` and returns its log (stderr).
    @discardableResult
    private static func ffmpeg(_ arguments: [String]) throws -> String {
        let result = try RunningProcess(
            executable: AudioFixtures.ffmpeg, arguments: arguments, environment: ProcessInfo.processInfo.environment
        ).waitUntilExit(timeout: 120)
        guard result.status == 0 else { throw TestSupportError("ffmpeg \(arguments) failed: \(result)") }
        return result.stderr
    }
}
