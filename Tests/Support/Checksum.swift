import Foundation

/// The SHA-256 of a file's contents, as 64 lowercase hex digits (via /usr/bin/sha256sum:
/// fast on large files even in a debug build; CryptoKit does not exist on Linux).
public func sha256(of url: URL) throws -> String {
    guard FileManager.default.isReadableFile(atPath: url.path) else {
        throw TestSupportError("sha256: cannot read \(url.path)")
    }
    return try sha256sum(arguments: ["--", url.path], stdin: nil)
}

/// The SHA-256 of `data`, as 64 lowercase hex digits.
public func sha256(of data: Data) throws -> String {
    try sha256sum(arguments: [], stdin: data)
}

private func sha256sum(arguments: [String], stdin: Data?) throws -> String {
    let tool = ["/usr/bin/sha256sum", "/bin/sha256sum"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let tool else { throw TestSupportError("sha256sum not found (coreutils)") }
    let result = try RunningProcess(
        executable: URL(fileURLWithPath: tool), arguments: arguments,
        environment: ProcessInfo.processInfo.environment, stdin: stdin ?? Data()
    ).waitUntilExit(timeout: 300)
    let digest = result.stdout.prefix(64)
    guard result.succeeded, digest.count == 64, digest.allSatisfy(\.isHexDigit) else {
        throw TestSupportError("sha256sum \(arguments) failed: \(result)")
    }
    return digest.lowercased()
}
