import CZlib

/// Bytes deflated into the zlib format (RFC 1950) and inflated back, with zlib's one-call
/// functions: what the library keeps of a transcript's text, at about a third of its size.
public enum Deflate {
    /// `bytes` deflated at zlib's best compression.
    /// - Throws: `ZlibError.outOfMemory`, the only way it fails (compressBound is room enough).
    public static func compress(_ bytes: [UInt8]) throws(ZlibError) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let code = output.withUnsafeMutableBufferPointer { output in
            bytes.withUnsafeBufferPointer { input in
                compress2(output.baseAddress, &length, input.baseAddress, uLong(input.count), Z_BEST_COMPRESSION)
            }
        }
        guard code == Z_OK else { throw code == Z_MEM_ERROR ? .outOfMemory : .failed(code: code) }
        output.removeSubrange(Int(length)...)
        return output
    }

    /// The bytes `deflated` came from.
    /// - Throws: `ZlibError.damaged` when they are not zlib's format or are cut short,
    ///   `.tooLarge` when they inflate to more than `limit` bytes, `.outOfMemory`.
    public static func decompress(_ deflated: [UInt8], limit: Int = 1 << 30) throws(ZlibError) -> [UInt8] {
        // The size is not stored: room for a good ratio first, twice as much each time it is short.
        var capacity = min(max(deflated.count * 4, 1 << 12), limit)
        while true {
            var length = uLong(capacity)
            var output = [UInt8](repeating: 0, count: capacity)
            let code = output.withUnsafeMutableBufferPointer { output in
                deflated.withUnsafeBufferPointer { input in
                    uncompress(output.baseAddress, &length, input.baseAddress, uLong(input.count))
                }
            }
            switch code {
            case Z_OK:
                output.removeSubrange(Int(length)...)
                return output
            case Z_BUF_ERROR where capacity < limit:
                capacity = min(capacity * 2, limit)
            case Z_BUF_ERROR:
                throw .tooLarge(limit: limit)
            case Z_MEM_ERROR:
                throw .outOfMemory
            case Z_DATA_ERROR:
                throw .damaged
            default:
                throw .failed(code: code)
            }
        }
    }
}

/// Why zlib could not deflate or inflate.
public enum ZlibError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not zlib's format, a wrong checksum, or cut short.
    case damaged
    /// They inflate to more than this many bytes.
    case tooLarge(limit: Int)
    case outOfMemory
    /// Any other result zlib gave.
    case failed(code: Int32)

    public var description: String {
        switch self {
        case .damaged: return "not deflated data, or damaged"
        case .tooLarge(let limit): return "inflates to more than \(limit) bytes"
        case .outOfMemory: return "out of memory"
        case .failed(let code): return "zlib failed (code \(code))"
        }
    }
}
