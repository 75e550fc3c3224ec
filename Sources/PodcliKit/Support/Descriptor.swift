#if canImport(Glibc)
    import Glibc
#endif

/// Writing to a file descriptor whole, for the few files podcli writes by hand.
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
}
