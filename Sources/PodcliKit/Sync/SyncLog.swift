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

    /// Appends `lines`, each made printable (`PrintableText`: a feed's text cannot forge a line
    /// or carry a password into the log); a log that cannot be written never fails the sync.
    public func append(_ lines: [String]) {
        try? PrivateDirectory.make(String(path[..<path.lastIndex(of: "/")!]))
        var info = stat()
        if stat(path, &info) == 0 && Int(info.st_size) >= limit { rename(path, path + ".1") }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // One write, so two runs' blocks never interleave.
        var text = lines.map { PrintableText.line($0) + "\n" }.joined()
        _ = text.withUTF8 { Descriptor.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }
}
