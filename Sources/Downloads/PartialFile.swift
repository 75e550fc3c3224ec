import Digest

#if canImport(Glibc)
    import Glibc
#endif

/// The `.part` file a download streams into, hashed as it grows, so the SHA-256 is ready the
/// moment the last byte is written. One owner of its file descriptor.
final class PartialFile {
    let directory: String
    private(set) var name: String?
    private(set) var size = 0
    /// The first bytes of the content, for `AudioSniffer`.
    private(set) var head: [UInt8] = []
    /// The ETag or Last-Modified the content came with, for If-Range on a resume.
    var validator: String?
    private var descriptor: Int32 = -1
    private var hasher = SHA256()
    private let mode: mode_t

    /// A partial download in `directory`: the existing `name` (to resume), or none yet.
    /// - Throws: `DownloadError.storage` when an existing partial file cannot be read.
    init(directory: String, name: String?, validator: String?, mode: mode_t) throws(DownloadError) {
        self.directory = directory
        self.mode = mode
        guard let name else { return }
        self.validator = validator
        let path = directory + "/" + name
        descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }  // vanished: start a new one
            throw .storage(path: path, errno: errno)
        }
        self.name = name
        // What is already there must enter the digest (and the sniffing window) before new bytes.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw .storage(path: path, errno: errno)
            }
            absorb(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    var path: String? { name.map { directory + "/" + $0 } }

    /// Creates the file as `name` (replacing any earlier partial file) with the protection mode.
    func create(name: String) throws(DownloadError) {
        let path = directory + "/" + name
        if let old = self.path, old != path { unlink(old) }
        if descriptor >= 0 { close(descriptor) }
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
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
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        absorb(bytes)
        return 0
    }

    /// Flushes the file to disk and returns its SHA-256. Call once, when the content is complete.
    func finish() throws(DownloadError) -> String {
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

    private func absorb(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bytes)
        size += bytes.count
        if head.count < AudioSniffer.windowSize {
            head.append(contentsOf: bytes.prefix(AudioSniffer.windowSize - head.count))
        }
    }

    private func resetContent() {
        validator = nil
        hasher = SHA256()
        size = 0
        head = []
    }
}
