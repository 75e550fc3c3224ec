#if canImport(Glibc)
    import Glibc
#endif

/// Bytes read by offset: a file on disk (`FileBytes`), or bytes in memory (the fuzzer's, a
/// test's). The readers of containers and tags take only what they need from it.
public protocol ByteSource {
    /// The length in bytes.
    var size: Int { get }
    /// Up to `count` bytes at `offset`: fewer at the end, none past it or on an error.
    func bytes(at offset: Int, count: Int) -> [UInt8]
}

/// Bytes in memory.
public struct MemoryBytes: ByteSource {
    public let storage: [UInt8]

    public init(_ storage: [UInt8]) { self.storage = storage }

    public var size: Int { storage.count }

    public func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0, offset < storage.count else { return [] }
        return Array(storage[offset..<min(storage.count, offset + min(count, storage.count))])
    }
}

/// One owner of a read-only file descriptor, read with `pread`. Not `Sendable`: one thread.
public final class FileBytes: ByteSource {
    public let path: String
    private let descriptor: Int32

    /// nil when the file cannot be opened.
    public init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.path = path
    }

    deinit { close(descriptor) }

    public var size: Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    public func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        let wanted = min(count, max(0, size - offset))
        guard wanted > 0 else { return [] }
        var result = [UInt8](repeating: 0, count: wanted)
        var got = 0
        while got < wanted {
            let step = result.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + got, wanted - got, offset + got)
            }
            if step < 0 && errno == EINTR { continue }
            guard step > 0 else { break }
            got += step
        }
        if got < wanted { result.removeLast(wanted - got) }
        return result
    }
}
