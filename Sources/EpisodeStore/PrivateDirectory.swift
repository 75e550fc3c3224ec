/// The directories podcli keeps its own things in (data, configuration, state): made 0700,
/// parents included, whatever the umask, as the XDG base directory rules ask.
public enum PrivateDirectory {
    /// Creates `path` and its missing parents, each 0700; what already exists is left as it is.
    /// - Throws: `StoreError.io` naming the directory that could not be made.
    public static func make(_ path: String) throws(StoreError) {
        try FileSystem.makeDirectories(path, mode: 0o700)
    }
}
