import EpisodeStore
import Strings

#if canImport(Glibc)
    import Glibc
#endif

/// `sync.log` in the state directory: one block per run (a summary line, then a line per
/// failure), so a month of cron runs can be read back. Kept bounded: past `limit` bytes the log
/// becomes `sync.log.1` (replacing the one before) and a new one starts.
public struct SyncLog {
    public let path: String
    public var limit = 256 * 1024

    public init(directory: String) { path = directory + "/sync.log" }

    /// Opens the log as `append` will, making it (and its directory) if missing: a log that is a
    /// link, not a regular file or another user's stops the sync before it starts, with a line
    /// that says so, where `append` would only skip it.
    /// - Throws: `PodcliError.notOwnFile`.
    public func check() throws(PodcliError) {
        if let descriptor = try open() { close(descriptor) }
    }

    /// Appends `lines`, each made printable (`PrintableText`: a feed's text cannot forge a line
    /// or carry a password into the log); a log that cannot be written never fails the sync.
    public func append(_ lines: [String]) {
        var info = stat()
        if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && Int(info.st_size) >= limit {
            rename(path, path + ".1")
        }
        guard let descriptor = try? open() else { return }
        defer { close(descriptor) }
        // One write, so two runs' blocks never interleave.
        var text = lines.map { PrintableText.line($0) + "\n" }.joined()
        _ = text.withUTF8 { Descriptor.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// The log for appending, its directory made (0700) if missing; nil when it cannot be opened.
    /// - Throws: `PodcliError.notOwnFile` when it is not podcli's to write.
    private func open() throws(PodcliError) -> Int32? {
        try? PrivateDirectory.make(String(path[..<path.lastIndex(of: "/")!]))
        do throws(OwnFile.Failure) {
            return try OwnFile.open(path, flags: O_WRONLY | O_APPEND)
        } catch {
            guard case .refused(let refusal) = error else { return nil }
            throw refusal
        }
    }
}
