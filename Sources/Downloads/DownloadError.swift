import FoundationEssentials
import Strings

#if canImport(Glibc)
    import Glibc
#endif

/// Everything that can stop a download, worded so a user can act on it.
public enum DownloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not an http or https URL (or not a URL at all).
    case invalidURL(String)
    /// A redirect pointed at a scheme podcli does not fetch (file://, ftp://, ...).
    case redirectRefused(from: String, to: String)
    case tooManyRedirects(url: String, limit: Int)
    /// The server answered with an error status, after any retries.
    case http(status: Int, url: String, attempts: Int)
    /// The server asked to come back later than podcli is willing to wait.
    case retryTooLate(url: String, seconds: Int)
    /// The connection failed, after any retries: libcurl's code and its own words.
    case network(code: Int32, message: String, url: String, attempts: Int)
    /// The host could not be reached at all (refused, no such name, no route): not retried, and
    /// not tried again in the same run.
    case unreachable(url: String, host: UnreachableHost)
    /// The body is not audio; nothing was kept.
    case notAudio(url: String, reason: String)
    /// The body is audio that cannot be played (cut short, no audio track, encrypted, a codec
    /// podcli lacks, a damaged page); nothing was kept.
    case unplayable(url: String, reason: String)
    /// An image longer than podcli takes as artwork.
    case imageTooLarge(url: String, limit: Int)
    /// A JSON chapters file longer than podcli reads.
    case chaptersTooLarge(url: String, limit: Int)
    /// A transcript file longer than podcli reads.
    case transcriptTooLarge(url: String, limit: Int)
    /// Writing the file failed (full disk, quota, file size limit, permissions).
    case storage(path: String, errno: Int32)
    /// The transfer ended without the whole body, after any retries.
    case incomplete(url: String, received: Int, expected: Int)
    /// A feed longer than podcli reads.
    case feedTooLarge(url: String, limit: Int)
    /// The enclosure is larger than policy allows, or a stream went past it; nothing was kept.
    case tooLarge(url: String, limit: Int)
    /// The transfer was still going after the time policy allows (a live stream); nothing was kept.
    case tooLong(url: String, seconds: Int)
    /// Going on would leave less free space than the floor (`free` bytes are left); the partial
    /// file is kept for later.
    case lowDiskSpace(path: String, floor: Int, free: Int)
    /// The one who asked for it stopped it (a player that quit); the partial file is kept for later.
    case stopped(url: String)

    public var description: String {
        switch self {
        case .invalidURL(let url):
            return "'\(url)' is not an http or https URL"
        case .redirectRefused(let from, let to):
            return "refused the redirect from \(from) to \(to): podcli fetches only http and https"
        case .tooManyRedirects(let url, let limit):
            return "too many redirects (more than \(limit)) starting at \(url)"
        case .http(let status, let url, let attempts):
            return "server answered \(status) \(HTTPStatus.reason(status)) for \(url)" + Self.tries(attempts)
        case .retryTooLate(let url, let seconds):
            return "\(url) is busy and asks to retry in \(seconds) s; try again later"
        case .network(_, let message, let url, let attempts):
            return "could not download \(url): \(message)" + Self.tries(attempts)
        case .unreachable(let url, let host):
            return "could not download \(url): \(host)"
        case .notAudio(let url, let reason):
            return "\(url) is not audio (\(reason)); nothing was kept"
        case .unplayable(let url, let reason):
            return "\(url) cannot be played: \(reason); nothing was kept"
        case .imageTooLarge(let url, let limit):
            return "\(url) is larger than \(limit / (1024 * 1024)) MiB, more than podcli takes as artwork"
        case .chaptersTooLarge(let url, let limit):
            return "\(url) is larger than \(limit / (1024 * 1024)) MiB, more than podcli reads as chapters"
        case .transcriptTooLarge(let url, let limit):
            return "\(url) is larger than \(limit / (1024 * 1024)) MiB, more than podcli reads as a transcript"
        case .storage(let path, let code):
            return "could not write \(path): \(String(cString: strerror(code)))"
        case .incomplete(let url, let received, let expected):
            return "download of \(url) ended early: \(received) of \(Counted.noun(expected, "byte"))"
        case .feedTooLarge(let url, let limit):
            return "\(url) is larger than \(limit / (1024 * 1024)) MiB, more than podcli reads as a feed"
        case .tooLarge(let url, let limit):
            return "\(url) is larger than the \(Self.mebibytes(limit)) allowed (max-size, stream-max-size); "
                + "nothing was kept"
        case .tooLong(let url, let seconds):
            return "\(url) was still sending after \(seconds) s, perhaps a live stream (stream-max-time); "
                + "nothing was kept"
        case .lowDiskSpace(let path, let floor, let free):
            return "stopped writing in \(path): only \(Self.mebibytes(free, rounding: true)) of the disk is free, and "
                + "min-free keeps \(Self.mebibytes(floor)) free; the next run resumes it"
        case .stopped(let url):
            return "the download of \(url) was stopped; 'podcli fetch' or 'play' resumes it"
        }
    }

    /// Throws `.invalidURL` unless `url` is an absolute http or https URL with a host.
    public static func checkFetchable(_ url: String) throws(DownloadError) {
        guard let components = URLComponents(string: url),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { throw .invalidURL(url) }
    }

    private static func mebibytes(_ bytes: Int, rounding: Bool = false) -> String {
        let mebibyte = 1024 * 1024
        if rounding && bytes >= mebibyte { return "\(bytes / mebibyte) MiB" }
        return bytes % mebibyte == 0 ? "\(bytes / mebibyte) MiB" : Counted.noun(bytes, "byte")
    }

    /// True when the disk, not the download, failed: no space, a quota, a file-size limit, or
    /// the free-space floor. Trying the episode again later is no help until space is freed.
    public var isOutOfSpace: Bool {
        switch self {
        case .lowDiskSpace: return true
        case .storage(_, let code): return code == ENOSPC || code == EDQUOT || code == EFBIG
        default: return false
        }
    }

    /// The host that could not be reached, when that is what stopped the transfer.
    public var unreachableHost: UnreachableHost? {
        if case .unreachable(_, let host) = self { return host }
        return nil
    }

    private static func tries(_ attempts: Int) -> String {
        attempts > 1 ? " (after \(attempts) attempts)" : ""
    }
}

/// Reason phrases for the statuses a podcast server is likely to send.
public enum HTTPStatus {
    public static func reason(_ status: Int) -> String {
        switch status {
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 410: return "Gone"
        case 416: return "Range Not Satisfiable"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return status >= 500 ? "Server Error" : "Error"
        }
    }
}
