import Foundation

/// The memory map of a running process, `/proc/PID/maps`, read whole. `String(contentsOfFile:)`
/// is not enough: procfs reports a size of 0, and it returns the first page (about 4 KiB, some
/// forty mappings) only, so a library mapped later is never seen.
public enum ProcessMaps {
    public static func read(_ pid: Int32) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else {
            throw TestSupportError("cannot read /proc/\(pid)/maps")
        }
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }
}
