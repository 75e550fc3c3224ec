import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real, small file system for the tests of a full disk: a tmpfs of a few hundred KiB mounted
/// at a directory of the test's own, unmounted when the value goes. Mounting needs root (CI runs
/// as root); elsewhere `isAvailable` is false and the tests that need it skip, except under
/// `CI=true`, where they run and fail.
public final class SmallDisk {
    public let path: String

    /// Whether this process may mount one.
    public static var isAvailable: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount") }

    /// Mounts a tmpfs of `kibibytes` at `path` (created if missing).
    public init(at path: String, kibibytes: Int) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kibibytes)k,mode=0755", "tmpfs", path])
        guard mount.status == 0 else { throw TestSupportError("could not mount a tmpfs at \(path): \(mount)") }
        self.path = path
    }

    deinit { _ = try? Self.run("/bin/umount", ["-l", path]) }

    /// Free bytes, as `statvfs` tells an unprivileged writer.
    public var freeBytes: Int {
        var info = statvfs()
        return statvfs(path, &info) == 0 ? Int(info.f_bavail) * Int(info.f_frsize) : 0
    }

    /// Fills the disk until only about `bytes` are left free, with a file that `empty()` removes.
    public func fill(leaving bytes: Int) throws {
        let filler = path + "/.filler"
        let size =
            max(freeBytes - bytes, 0)
            + ((try? FileManager.default.attributesOfItem(atPath: filler))?[.size]
                as? Int ?? 0)
        guard FileManager.default.createFile(atPath: filler, contents: Data(count: size)) else {
            throw TestSupportError("could not write \(size) bytes at \(filler)")
        }
    }

    /// Gives back what `fill` took.
    public func empty() { unlink(path + "/.filler") }

    private static func run(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
        try RunningProcess(
            executable: URL(fileURLWithPath: tool), arguments: arguments,
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit(timeout: 30)
    }
}
