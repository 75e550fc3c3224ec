import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Writing to and reading from a file descriptor whole, for the few files podcli handles by hand.
public enum Descriptor {
    /// Writes all of `bytes`, through short writes and signals; false (with errno set) when it
    /// could not.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += count
        }
        return true
    }

    /// All of what `descriptor` reads to its end (a helper's stdin), up to `limit` bytes; nil on
    /// a read error or past the limit.
    public static func readAll(from descriptor: Int32, upTo limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > limit { return nil }
        }
    }

    /// A file in memory with no name holding `bytes`, read from its start: what a helper is
    /// handed as its stdin. Nothing of it is left anywhere once its last descriptor closes, and
    /// writing it never waits for the reader, as a pipe's writer would past 64 KiB. The caller
    /// closes it; nil when it could not be made.
    public static func memoryFile(named name: String, holding bytes: [UInt8]) -> Int32? {
        let descriptor = csystem_memory_file(name)
        guard descriptor >= 0 else { return nil }
        guard bytes.withUnsafeBytes({ writeAll($0, to: descriptor) }), lseek(descriptor, 0, SEEK_SET) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
