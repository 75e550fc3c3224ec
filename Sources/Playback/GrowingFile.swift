#if canImport(Glibc)
    import Glibc
#endif

/// A file another thread is still writing, read through libmpg123's replaceable reader: a read
/// that reaches the end waits for more until the writer says it is done.
final class GrowingFile: @unchecked Sendable {
    // @unchecked: the descriptor is only used from the decoder's thread; `isComplete` is Sendable.
    let path: String
    private let descriptor: Int32
    private let isComplete: @Sendable () -> Bool

    /// How long a read waits before looking again for new bytes.
    static let pollInterval: useconds_t = 20_000

    init(path: String, isComplete: @escaping @Sendable () -> Bool) throws(DecoderError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        self.path = path
        self.descriptor = descriptor
        self.isComplete = isComplete
    }

    deinit { close(descriptor) }

    /// Bytes on disk now.
    var availableBytes: Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    /// POSIX read, except that the end of what has arrived is not the end of the file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        var writerDone = false
        while true {
            let got = Glibc.read(descriptor, buffer, count)
            if got > 0 || (got == 0 && writerDone) { return got }
            if got < 0 {
                if errno == EINTR { continue }
                return -1
            }
            // Read once more after the writer finishes: its last bytes may have landed since.
            if isComplete() {
                writerDone = true
            } else {
                usleep(Self.pollInterval)
            }
        }
    }

    static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int = {
        handle, buffer, count in
        Unmanaged<GrowingFile>.fromOpaque(handle!).takeUnretainedValue().read(into: buffer!, count: count)
    }

    static let seek: @convention(c) (UnsafeMutableRawPointer?, Int, Int32) -> Int = { handle, offset, whence in
        lseek(Unmanaged<GrowingFile>.fromOpaque(handle!).takeUnretainedValue().descriptor, offset, whence)
    }
}
