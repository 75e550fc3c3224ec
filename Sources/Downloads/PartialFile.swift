import AudioFormats
import CSystem
import Digest

#if canImport(Glibc)
    import Glibc
#endif

/// The `.part` file a download streams into, hashed as it grows, so the SHA-256 is ready the
/// moment the last byte is written. One owner of its file descriptor.
///
/// libcurl delivers at most 16 KiB per callback; appends are gathered into one of two buffers
/// that fit the CPU cache. A full buffer is hashed on a second thread while this one writes it
/// and fills the other. Writeback to disk is started as the file grows, so the final fsync waits
/// for little.
final class PartialFile {
    let directory: String
    private(set) var name: String?
    private(set) var size = 0
    /// The first bytes of the content, for `AudioSniffer`.
    private(set) var head: [UInt8] = []
    /// The ETag or Last-Modified the content came with, for If-Range on a resume.
    var validator: String?
    private var descriptor: Int32 = -1
    private let hasher = BackgroundHasher()
    private let mode: mode_t
    private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: PartialFile.bufferSize, alignment: 64)
    /// The buffer being hashed while `buffer` fills.
    private var spare = UnsafeMutableRawBufferPointer.allocate(byteCount: PartialFile.bufferSize, alignment: 64)
    private var buffered = 0
    /// Where the last writeback hint ended; bytes before it are already on their way to disk.
    private var writebackStarted = 0

    private static let bufferSize = 256 * 1024
    private static let writebackStep = 8 * 1024 * 1024

    /// A partial download in `directory`: the existing `name` (to resume), or none yet.
    /// - Throws: `DownloadError.storage` when an existing partial file cannot be read.
    init(directory: String, name: String?, validator: String?, mode: mode_t) throws(DownloadError) {
        self.directory = directory
        self.mode = mode
        guard let name else { return }
        self.validator = validator
        let path = directory + "/" + name
        // Never through a link: what it points to is not ours to extend.
        descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }  // vanished: start a new one
            throw .storage(path: path, errno: errno)
        }
        self.name = name
        // What is already there must enter the digest (and the sniffing window) before new bytes.
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw .storage(path: path, errno: errno)
            }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            hasher.updateNow(bytes)
            keepHead(bytes)
            size += count
        }
    }

    deinit {
        // What arrived is kept for a resume (a download stopped, or failed for good), not only
        // what filled a buffer: the next run asks for the rest from the end of the file.
        if descriptor >= 0 && buffered > 0 { _ = flush() }
        if descriptor >= 0 { close(descriptor) }
        hasher.waitForUpdates()
        buffer.deallocate()
        spare.deallocate()
    }

    var path: String? { name.map { directory + "/" + $0 } }

    /// Creates the file as `name` (replacing any earlier partial file) with the protection mode.
    /// Whatever was at `name` (a stale file, a link planted there) is removed first and the file
    /// made anew (O_EXCL, O_NOFOLLOW): a download never writes through a link.
    func create(name: String) throws(DownloadError) {
        let path = directory + "/" + name
        if let old = self.path, old != path { unlink(old) }
        if descriptor >= 0 { close(descriptor) }
        unlink(path)
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .storage(path: path, errno: errno) }
        self.name = name
        resetContent()
    }

    /// Empties the file, for a server that sent the whole body instead of the rest.
    func truncate() throws(DownloadError) {
        guard descriptor >= 0 else { return }
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw .storage(path: path ?? directory, errno: errno)
        }
        resetContent()
    }

    /// Appends `bytes`. Returns 0, or the errno of a failed write (ENOSPC, EFBIG, EDQUOT, ...).
    func append(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        keepHead(bytes)
        size += bytes.count
        var rest = bytes
        while !rest.isEmpty {
            let count = min(rest.count, buffer.count - buffered)
            UnsafeMutableRawBufferPointer(rebasing: buffer[buffered..<(buffered + count)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: rest.prefix(count)))
            buffered += count
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(count))
            if buffered == buffer.count {
                let code = flush()
                if code != 0 { return code }
            }
        }
        return 0
    }

    /// Hashes (on the hasher's thread) and writes the buffered bytes, then switches buffers.
    /// Returns 0 or the errno of the failed write.
    private func flush() -> Int32 {
        hasher.waitForUpdates()  // `spare` is free again
        let pending = UnsafeRawBufferPointer(rebasing: buffer[0..<buffered])
        hasher.update(pending)
        swap(&buffer, &spare)
        var offset = 0
        while offset < pending.count {
            let count = write(descriptor, pending.baseAddress! + offset, pending.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                buffered = 0
                return errno
            }
            offset += count
        }
        buffered = 0
        if size - writebackStarted >= PartialFile.writebackStep {
            // Only a hint: a failure here just leaves the work to the final fsync.
            _ = csystem_start_writeback(descriptor, Int64(writebackStarted), Int64(size - writebackStarted))
            writebackStarted = size
        }
        return 0
    }

    /// Flushes the file to disk and returns its SHA-256. Call once, when the content is complete.
    func finish() throws(DownloadError) -> String {
        let code = buffered > 0 ? flush() : 0
        guard code == 0 else { throw .storage(path: path ?? directory, errno: code) }
        guard fsync(descriptor) == 0 else { throw .storage(path: path ?? directory, errno: errno) }
        close(descriptor)
        descriptor = -1
        return hasher.finalize()
    }

    /// Deletes the file: for content that must never be kept.
    func delete() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let path { unlink(path) }
        name = nil
        resetContent()
    }

    private func keepHead(_ bytes: UnsafeRawBufferPointer) {
        if head.count < AudioSniffer.windowSize {
            head.append(contentsOf: bytes.prefix(AudioSniffer.windowSize - head.count))
        }
    }

    private func resetContent() {
        validator = nil
        hasher.reset()
        size = 0
        buffered = 0
        writebackStarted = 0
        head = []
    }
}
