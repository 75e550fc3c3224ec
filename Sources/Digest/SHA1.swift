import CCrypto

/// SHA-1 by OpenSSL's libcrypto, for protocols that name it (Podcast Index's `Authorization`
/// header), never for checking a file: SHA-1 collisions can be made.
public enum SHA1 {
    /// The SHA-1 of `bytes`: lowercase hexadecimal, 40 characters.
    public static func hex(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha1(), nil) == 1 else {
            fatalError("libcrypto could not compute SHA-1 (out of memory)")
        }
        return Hexadecimal.lowercase(digest.prefix(Int(length)))
    }
}
