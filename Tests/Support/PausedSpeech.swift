import Foundation

/// A FLAC file Debian's `ffmpeg` makes for skip silence: 1 s of speech-like sound (a 300 Hz tone
/// whose level moves as a voice's does) every 5 s, the 4 s pauses between holding a 93 Hz hum at
/// −50 dBFS, under the −42 dBFS threshold, as a room's tone is. 44.1 kHz stereo, 16 s.
public enum PausedSpeech {
    public static let seconds = 16
    public static let sampleRate = 44_100

    /// Writes the file at `url` (`AudioFixtures.unavailableReason` says whether it can).
    public static func make(at url: URL) throws {
        let sound = "0.3*sin(2*PI*300*t)*(0.6+0.4*sin(2*PI*4*t))"
        let hum = "0.003*sin(2*PI*93*t)"
        // Commas inside a filter's option are escaped from the filter graph.
        let channel = "if(lt(mod(t,5),1),\(sound),\(hum))".replacingOccurrences(of: ",", with: "\\,")
        let result = try RunningProcess(
            executable: AudioFixtures.ffmpeg,
            arguments: [
                "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                "aevalsrc=\(channel)|0.8*\(channel):s=\(sampleRate):d=\(seconds)",
                "-c:a", "flac", "-sample_fmt", "s16", url.path,
            ], environment: ProcessInfo.processInfo.environment
        ).waitUntilExit(timeout: 60)
        guard result.succeeded else { throw TestSupportError("ffmpeg could not make \(url.path): \(result)") }
    }
}
