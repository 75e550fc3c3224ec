import CCrypto

/// A streaming SHA-256 computed by OpenSSL's libcrypto; one owner of its EVP context.
///
/// Not `Sendable`: feed it from one thread.
public final class SHA256 {
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto could not set up SHA-256 (out of memory)")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `count` bytes at `bytes` to the digest.
    public func update(_ bytes: UnsafeRawPointer, count: Int) {
        EVP_DigestUpdate(context, bytes, count)
    }

    /// Adds the bytes of `buffer` to the digest.
    public func update(_ buffer: UnsafeRawBufferPointer) {
        if let base = buffer.baseAddress { update(base, count: buffer.count) }
    }

    /// Finishes the digest: lowercase hexadecimal, 64 characters. Call once.
    public func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Hexadecimal.lowercase(digest.prefix(Int(length)))
    }

    /// The SHA-256 of the file at `path`, read in large blocks; nil with `errno` set when the file
    /// cannot be read.
    public static func ofFile(atPath path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let hasher = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { return hasher.finalize() }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            hasher.update(buffer.baseAddress!, count: count)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
