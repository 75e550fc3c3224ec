import Foundation

/// Runs the built `podcli` executable as a child process.
///
/// The executable is found, in this order: `$PODCLI_EXECUTABLE`; next to the running test
/// binary (`.build/<triple>/debug/podcliPackageTests.xctest` sits beside
/// `.build/<triple>/debug/podcli`; on macOS the bundle's parents are searched too); then
/// `<package>/.build/debug/podcli` and `<package>/.build/release/podcli`, with the package
/// found from this source file's location.
///
/// The child's environment is the test process's, without `PODCLI_HOME`, with `NO_COLOR=1`,
/// then `environment` of the runner, then the `environment` given to `run`/`start` (later
/// ones win; so `PODCLI_HOME` is set only when a test gives it).
public struct PodcliRunner: Sendable {
    public let executableURL: URL
    /// Variables added to every run's environment (e.g. `PODCLI_HOME` of the test's library).
    public var environment: [String: String]

    public init(environment: [String: String] = [:]) throws {
        self.executableURL = try Self.locateExecutable()
        self.environment = environment
    }

    public init(executableURL: URL, environment: [String: String] = [:]) {
        self.executableURL = executableURL
        self.environment = environment
    }

    /// Runs podcli to the end and returns its status and output. With `stdin` nil the child
    /// reads /dev/null. Throws if it cannot start or runs longer than `timeout` seconds
    /// (then it is killed and the error message carries its output).
    public func run(
        _ args: [String], environment: [String: String] = [:], stdin: Data? = nil,
        workingDirectory: URL? = nil, timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        try start(args, environment: environment, stdin: stdin, workingDirectory: workingDirectory)
            .waitUntilExit(timeout: timeout)
    }

    /// Starts podcli and returns at once, for tests that interrupt it.
    public func start(
        _ args: [String], environment: [String: String] = [:], stdin: Data? = nil,
        workingDirectory: URL? = nil
    ) throws -> RunningProcess {
        try RunningProcess(
            executable: executableURL, arguments: args,
            environment: childEnvironment(environment), workingDirectory: workingDirectory,
            stdin: stdin)
    }

    /// The environment a child gets with `extra` on top.
    public func childEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "PODCLI_HOME")
        env["NO_COLOR"] = "1"
        env.merge(environment) { _, new in new }
        env.merge(extra) { _, new in new }
        return env
    }

    // MARK: - Finding the executable

    public static let executableName = "podcli"

    public static func locateExecutable(sourceFile: String = #filePath) throws -> URL {
        let fm = FileManager.default
        func usable(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            return fm.fileExists(atPath: url.path, isDirectory: &isDirectory)
                && !isDirectory.boolValue && fm.isExecutableFile(atPath: url.path)
        }
        var tried: [String] = []

        if let explicit = ProcessInfo.processInfo.environment["PODCLI_EXECUTABLE"], !explicit.isEmpty {
            let url = URL(fileURLWithPath: explicit)
            if usable(url) { return url }
            throw TestSupportError(
                "PODCLI_EXECUTABLE=\(explicit) is not an executable file")
        }

        // The running test binary: Linux runs `<build dir>/podcliPackageTests.xctest` itself;
        // macOS runs `<build dir>/podcliPackageTests.xctest/Contents/MacOS/podcliPackageTests`
        // (or xctest with the bundle path as an argument).
        var starts: [URL] = []
        if let exe = Bundle.main.executableURL { starts.append(exe) }
        if let arg0 = CommandLine.arguments.first, !arg0.isEmpty {
            starts.append(URL(fileURLWithPath: arg0))
        }
        starts.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
        for arg in CommandLine.arguments.dropFirst() where arg.hasSuffix(".xctest") {
            starts.append(URL(fileURLWithPath: arg).appendingPathComponent("x"))
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            starts.append(bundle.bundleURL.appendingPathComponent("x"))
        }
        for start in starts {
            var dir = start.standardizedFileURL.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = dir.appendingPathComponent(executableName)
                tried.append(candidate.path)
                if usable(candidate) { return candidate }
                if dir.path == "/" { break }
                dir = dir.deletingLastPathComponent()
            }
        }

        // <package>/Tests/Support/PodcliRunner.swift -> <package>/.build/{debug,release}/podcli
        let package = URL(fileURLWithPath: sourceFile).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for configuration in ["debug", "release"] {
            let candidate = package.appendingPathComponent(".build/\(configuration)/\(executableName)")
            tried.append(candidate.path)
            if usable(candidate) { return candidate }
        }

        var seen = Set<String>()
        let list = tried.filter { seen.insert($0).inserted }.joined(separator: "\n  ")
        throw TestSupportError(
            """
            The podcli executable was not found. Build it first (`swift build`, or run the \
            tests with `swift test`, which builds it), or set PODCLI_EXECUTABLE. Looked at:
              \(list)
            """)
    }
}
