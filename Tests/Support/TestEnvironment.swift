import Foundation

/// Facts about where the tests run. A test that needs a tool (a server, a command, the corpus)
/// says so with `.requires(...)` (`Requirement.swift`): it runs where the tool is, and always in
/// CI (`CI=true`), so that a missing install step fails there instead of skipping.
public enum TestEnvironment {
    /// `CI=true`: a missing tool, bus or corpus is a failure there, never a reason to skip.
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Whether `path` is an executable file.
    public static func has(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }
}
