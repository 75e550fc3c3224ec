import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh directory under the system temporary directory, removed (recursively) when the
/// value is deinitialized, unless the environment variable `KEEP_TEST_FILES` is set.
public final class TemporaryDirectory: Sendable {
    public let url: URL
    public var path: String { url.path }

    /// - Parameter prefix: the start of the directory's name, to tell test leftovers apart.
    public init(prefix: String = "podcli-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            mkdtemp(buffer.baseAddress!) != nil
        }
        guard made else {
            throw TestSupportError("mkdtemp failed under \(base): \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Resolve /tmp -> /private/tmp and the like, so paths compare equal to what tools print.
        url = URL(fileURLWithPath: path, isDirectory: true).resolvingSymlinksInPath()
    }

    /// `url` with `relativePath` appended.
    public func appending(_ relativePath: String) -> URL {
        url.appendingPathComponent(relativePath)
    }

    /// Writes `data` at `relativePath` (creating intermediate directories) and returns its URL.
    @discardableResult
    public func write(_ data: Data, to relativePath: String) throws -> URL {
        let file = appending(relativePath)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Writes `text` as UTF-8 at `relativePath` and returns its URL.
    @discardableResult
    public func write(_ text: String, to relativePath: String) throws -> URL {
        try write(Data(text.utf8), to: relativePath)
    }

    deinit {
        if ProcessInfo.processInfo.environment["KEEP_TEST_FILES"] != nil {
            FileHandle.standardError.write(Data("KEEP_TEST_FILES: kept \(url.path)\n".utf8))
            return
        }
        if (try? FileManager.default.removeItem(at: url)) == nil {
            // Something in the tree was made read-only (tests of permission handling do that):
            // give the owner full rights back everywhere and try again.
            let fm = FileManager.default
            _ = chmod(url.path, 0o700)
            if let walker = fm.enumerator(atPath: url.path) {
                for case let relative as String in walker {
                    let full = url.path + "/" + relative
                    var st = stat()
                    if lstat(full, &st) == 0, (st.st_mode & S_IFMT) != S_IFLNK {
                        _ = chmod(full, (st.st_mode & S_IFMT) == S_IFDIR ? 0o700 : 0o600)
                    }
                }
            }
            try? fm.removeItem(at: url)
        }
    }
}

/// An error from the test support code, with a message meant for the test log.
public struct TestSupportError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
