#if canImport(Glibc)
    import Glibc
#endif

/// A file as libmpg123 reads it (through its replaceable reader) and FFmpeg (through an
/// `AVIOContext`, see `FFmpegDemuxer`).
///
/// Buffered: libmpg123 reads each frame's header and then its body, two system calls per frame
/// (a quarter of a million for an hour of audio) without a buffer. And, for a file another
/// thread is still writing (an episode streamed while it downloads), a read that reaches the end
/// waits for more until the writer says it is done.
final class AudioFile: @unchecked Sendable {
    // @unchecked: used only from the thread of the decoder that owns it; `arrival` is Sendable.
    let path: String
    private let descriptor: Int32
    /// nil for a file that is complete.
    private let arrival: Arrival?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// The file offset of `buffer[0]`, how many bytes of the buffer hold data, and the next one to read.
    private var bufferOffset = 0
    private var bufferCount = 0
    private var cursor = 0

    init(path: String, arrival: Arrival? = nil) throws(DecoderError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        self.path = path
        self.descriptor = descriptor
        self.arrival = arrival
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    var isGrowing: Bool { arrival != nil }

    /// Bytes on disk now.
    var availableBytes: Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Where the next read starts.
    var offset: Int { bufferOffset + cursor }

    /// Bytes that can be read without waiting, below which a growing file is starved.
    static let readAhead = 16 * 1024

    /// True when the writer is not done and less than `readAhead` is there to be read: a read
    /// now would wait (and the player would not hear its keys meanwhile).
    var isStarved: Bool {
        guard let arrival, !arrival.isOver() else { return false }
        return availableBytes - (bufferOffset + cursor) < Self.readAhead
    }

    /// POSIX read semantics, from the buffer.
    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        if cursor == bufferCount {
            let filled = fill(from: bufferOffset + bufferCount)
            guard filled > 0 else { return filled }
        }
        let copied = min(count, bufferCount - cursor)
        destination.copyMemory(from: buffer.baseAddress! + cursor, byteCount: copied)
        cursor += copied
        return copied
    }

    /// POSIX lseek semantics; moves within the buffer when it can.
    func seek(to offset: Int, from whence: Int32) -> Int {
        let target: Int
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = bufferOffset + cursor + offset
        case SEEK_END: target = availableBytes + offset
        default: target = -1
        }
        guard target >= 0 else {
            errno = EINVAL
            return -1
        }
        if target >= bufferOffset && target <= bufferOffset + bufferCount {
            cursor = target - bufferOffset
        } else {
            bufferOffset = target
            bufferCount = 0
            cursor = 0
        }
        return target
    }

    /// Reads into the buffer from `offset`; returns the bytes read, 0 at the end (of a growing
    /// file: once its writer is done), -1 on an error.
    private func fill(from offset: Int) -> Int {
        var writerDone = false
        while true {
            let got = pread(descriptor, buffer.baseAddress!, buffer.count, offset)
            if got > 0 || (got == 0 && (writerDone || arrival == nil)) {
                bufferOffset = offset
                bufferCount = max(0, got)
                cursor = 0
                return got
            }
            if got < 0 {
                if errno == EINTR { continue }
                return -1
            }
            // At what has arrived: sleep until the writer adds to it or is done (then read once
            // more: its last bytes may have landed since).
            guard let arrival else { return 0 }
            arrival.changes.wait { arrival.isOver() || availableBytes > offset }
            writerDone = arrival.isOver()
        }
    }

    static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int = {
        handle, buffer, count in
        Unmanaged<AudioFile>.fromOpaque(handle!).takeUnretainedValue().read(into: buffer!, count: count)
    }

    static let seek: @convention(c) (UnsafeMutableRawPointer?, Int, Int32) -> Int = { handle, offset, whence in
        Unmanaged<AudioFile>.fromOpaque(handle!).takeUnretainedValue().seek(to: offset, from: whence)
    }
}
