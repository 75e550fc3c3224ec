import Foundation

/// Whether a test that needs a tool (a server, a command, the corpus) runs: where the tool is,
/// and always in CI (`CI=true`), so that a missing install step fails there instead of skipping.
public enum TestEnvironment {
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// For `.enabled(if: TestEnvironment.runs(needing: ...))`.
    public static func runs(needing available: Bool) -> Bool { isCI || available }

    /// Whether `path` is an executable file.
    public static func has(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }
}
