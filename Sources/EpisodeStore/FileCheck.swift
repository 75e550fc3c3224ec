import Digest

#if canImport(Glibc)
    import Glibc
#endif

/// How a file on disk differs from its record.
public enum Drift: Equatable, Sendable, CustomStringConvertible {
    case missing
    case size(expected: Int, actual: Int)
    case checksum(expected: String, actual: String)
    case mode(expected: UInt32, actual: UInt32)
    case owner(expected: UInt32, actual: UInt32)
    case directoryMode(expected: UInt32, actual: UInt32)
    case unreadable(errno: Int32)

    public var description: String {
        switch self {
        case .missing: return "missing"
        case .size(let expected, let actual): return "size \(actual) bytes, recorded \(expected)"
        case .checksum(let expected, let actual):
            return "SHA-256 \(actual.prefix(12))…, recorded \(expected.prefix(12))…"
        case .mode(let expected, let actual): return "mode \(octal(actual)), recorded \(octal(expected))"
        case .owner(let expected, let actual): return "owner uid \(actual), recorded \(expected)"
        case .directoryMode(let expected, let actual):
            return "directory mode \(octal(actual)), protection wants \(octal(expected))"
        case .unreadable(let code): return "unreadable: \(String(cString: strerror(code)))"
        }
    }

    /// True when the content itself is wrong or gone, so only a new download can repair it.
    public var needsDownload: Bool {
        switch self {
        case .missing, .size, .checksum, .unreadable: return true
        case .mode, .owner, .directoryMode: return false
        }
    }
}

/// Formats permission bits the way `ls`/`stat` users write them: "0600".
public func octal(_ mode: UInt32) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

extension Library {
    /// Compares a recorded file, and its episode directory, with what is on disk.
    /// The checksum is computed only when the size matches.
    public func check(_ file: EpisodeFile, of episode: Episode) -> [Drift] {
        var drifts: [Drift] = []
        if let info = FileSystem.status(directory(of: episode)) {
            let actual = UInt32(info.st_mode & 0o7777)
            let expected = UInt32(episode.protection.directoryMode)
            if actual != expected { drifts.append(.directoryMode(expected: expected, actual: actual)) }
        }
        let path = path(of: file)
        guard let info = FileSystem.status(path) else { return drifts + [.missing] }
        let mode = UInt32(info.st_mode & 0o7777)
        if mode != file.mode { drifts.append(.mode(expected: file.mode, actual: mode)) }
        if info.st_uid != file.ownerUID { drifts.append(.owner(expected: file.ownerUID, actual: info.st_uid)) }
        if Int(info.st_size) != file.size {
            drifts.append(.size(expected: file.size, actual: Int(info.st_size)))
        } else if let digest = SHA256.ofFile(atPath: path) {
            if digest != file.sha256 { drifts.append(.checksum(expected: file.sha256, actual: digest)) }
        } else {
            drifts.append(.unreadable(errno: errno))
        }
        return drifts
    }

    /// Restores what can be restored without downloading: modes and owner.
    /// - Returns: the drifts that remain.
    public func repairAttributes(_ file: EpisodeFile, of episode: Episode, drifts: [Drift]) -> [Drift] {
        drifts.filter { drift in
            switch drift {
            case .directoryMode(let expected, _):
                return chmod(directory(of: episode), mode_t(expected)) != 0
            case .mode(let expected, _):
                return chmod(path(of: file), mode_t(expected)) != 0
            case .owner(let expected, _):
                return lchown(path(of: file), expected, gid_t(bitPattern: -1)) != 0
            default:
                return true
            }
        }
    }

    /// Notes that a file matched its record now.
    public func markVerified(_ file: EpisodeFile) throws(StoreError) {
        try write { writer throws(StoreError) in
            try writer.run("UPDATE files SET verified_at = ? WHERE id = ?", [SQLValue(writer.now), SQLValue(file.id)])
        }
    }
}
