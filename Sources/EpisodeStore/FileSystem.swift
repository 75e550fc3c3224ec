#if canImport(Glibc)
    import Glibc
#endif

/// The few POSIX file operations the store needs, each turning errno into a `StoreError`.
enum FileSystem {
    /// Creates `path` (one level) if missing and sets its mode exactly, whatever the umask.
    static func makeDirectory(_ path: String, mode: mode_t) throws(StoreError) {
        if mkdir(path, mode) != 0 && errno != EEXIST {
            throw .io(path: path, operation: "create the directory", errno: errno)
        }
        try changeMode(path, to: mode)
    }

    /// Creates `path` and every missing directory above it, each made here given `mode` exactly,
    /// whatever the umask (through a descriptor opened without following a link, so a link put in
    /// place of a new directory is refused, never changed). A directory that already exists keeps
    /// its mode: it may be shared on purpose (a `--home` a media server reads).
    static func makeDirectories(_ path: String, mode: mode_t) throws(StoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if exists(prefix) { continue }
            if mkdir(prefix, mode) != 0 {
                // Another process made it meanwhile: theirs to set.
                if errno == EEXIST { continue }
                throw .io(path: prefix, operation: "create the directory", errno: errno)
            }
            let descriptor = open(prefix, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { throw .io(path: prefix, operation: "open the directory", errno: errno) }
            defer { close(descriptor) }
            guard fchmod(descriptor, mode) == 0 else {
                throw .io(path: prefix, operation: "change the mode of", errno: errno)
            }
        }
    }

    static func changeMode(_ path: String, to mode: mode_t) throws(StoreError) {
        guard chmod(path, mode) == 0 else { throw .io(path: path, operation: "change the mode of", errno: errno) }
    }

    /// Gives the regular file at `path` its mode and returns what it is now; a link (or anything
    /// but a regular file) there is refused, never followed.
    static func protectRegularFile(_ path: String, mode: mode_t) throws(StoreError) -> stat {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .io(path: path, operation: "open (it must be a regular file)", errno: errno)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .io(path: path, operation: "read", errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .io(path: path, operation: "record (it is not a regular file)", errno: EINVAL)
        }
        guard fchmod(descriptor, mode) == 0 else {
            throw .io(path: path, operation: "change the mode of", errno: errno)
        }
        guard fstat(descriptor, &info) == 0 else { throw .io(path: path, operation: "read", errno: errno) }
        return info
    }

    static func isRegularFile(_ path: String) -> Bool {
        status(path).map { $0.st_mode & S_IFMT == S_IFREG } ?? false
    }

    static func rename(_ source: String, to destination: String) throws(StoreError) {
        guard Glibc.rename(source, destination) == 0 else {
            throw .io(path: source, operation: "rename", errno: errno)
        }
    }

    /// Flushes a directory's entries, so a rename in it survives a power loss.
    static func syncDirectory(_ path: String) throws(StoreError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, operation: "open", errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .io(path: path, operation: "sync", errno: errno) }
    }

    /// Puts `bytes` at `path` with `mode` (whatever the umask) so that a reader sees the old
    /// file or the new one, never part of one: written to a hidden temporary file beside it,
    /// synced, renamed over it. Nothing is left behind when it fails.
    static func replace(_ path: String, with bytes: [UInt8], mode: mode_t) throws(StoreError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var template = Array((directory + "/.podcli-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .io(path: path, operation: "create a file beside", errno: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: (operation: String, errno: Int32)?
        if fchmod(descriptor, mode) != 0 { failure = ("change the mode of", errno) }
        var written = 0
        while failure == nil && written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno != EINTR { failure = ("write", errno) }
            if count > 0 { written += count }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = ("sync", errno) }
        close(descriptor)
        if failure == nil && Glibc.rename(temporary, path) != 0 { failure = ("rename into", errno) }
        if let failure {
            unlink(temporary)
            throw .io(path: path, operation: failure.operation, errno: failure.errno)
        }
    }

    static func status(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    static func exists(_ path: String) -> Bool { status(path) != nil }

    /// The names in a directory, without `.` and `..`; empty when it cannot be read.
    static func entries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(cString: bytes.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Deletes `path` and everything below it; a missing path is not an error.
    static func removeTree(_ path: String) throws(StoreError) {
        guard let info = status(path) else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in entries(path) { try removeTree(path + "/" + name) }
            guard rmdir(path) == 0 || errno == ENOENT else { throw .io(path: path, operation: "remove", errno: errno) }
        } else {
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .io(path: path, operation: "remove", errno: errno)
            }
        }
    }
}
