import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Under `CI=true`, everything the suite needs is there: a test that would skip on a developer's
/// machine for want of a tool, a bus or the corpus must not pass unseen in CI (a test over the
/// corpus's files has no cases at all without it). One line per thing missing, naming its
/// Debian package, so a missing install step is a failure even when every other test is green.
@Suite struct PrerequisitesTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus").standardized.path

    /// What is missing, each with what provides it.
    static var missing: [String] {
        let tools: [(String, String)] = [
            ("/usr/bin/mpg123", "mpg123"), ("/usr/bin/aplay", "alsa-utils"), ("/usr/bin/sox", "sox"),
            ("/usr/bin/lame", "lame"), ("/usr/bin/playerctl", "playerctl"), ("/usr/bin/python3", "python3"),
            ("/usr/bin/script", "bsdutils"), ("/usr/bin/systemd-analyze", "systemd"),
            ("/usr/bin/setpriv", "util-linux"),
            ("/usr/sbin/runuser", "util-linux"), ("/bin/mount", "mount"),
            ("/usr/bin/groff", "groff-base"), ("/usr/bin/mandoc", "mandoc"),
        ]
        var missing = tools.filter { !FileManager.default.isExecutableFile(atPath: $0.0) }.map { "\($0.0) (\($0.1))" }
        if let reason = PulseAudioServer.unavailableReason { missing.append("PulseAudio: \(reason)") }
        if !PulseAudioServer.alsaPluginInstalled { missing.append("ALSA's pulse plugin (libasound2-plugins)") }
        if let reason = MessageBus.unavailableReason { missing.append("D-Bus: \(reason)") }
        if let reason = NotificationServer.unavailableReason { missing.append("the notification server: \(reason)") }
        for folder in ["audio", "feeds"]
        where !FileManager.default.fileExists(atPath: "\(corpus)/\(folder)/SOURCES.tsv") {
            missing.append("the corpus: \(corpus)/\(folder)")
        }
        if getuid() != 0 { missing.append("root (the full-disk and second-user tests)") }
        return missing
    }

    @Test(.enabled(if: TestEnvironment.isCI, "only CI must have everything"))
    func everythingTheSuiteNeedsIsInstalled() {
        let missing = Self.missing
        #expect(missing.isEmpty, "CI=true, but missing: \(missing.joined(separator: "; "))")
    }
}
