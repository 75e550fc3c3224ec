import AudioFormats
import CCurl
import Threads

/// What a download needs to know: where from, where to, and what an earlier run left.
public struct DownloadRequest: Sendable {
    public var url: String
    /// The episode directory; the partial file is created in it.
    public var directory: String
    /// The name of a partial download an earlier run left in `directory`, to resume.
    public var partialName: String?
    /// The ETag or Last-Modified that partial download came with.
    public var validator: String?
    /// The mode a new partial file is created with.
    public var fileMode: mode_t
    public var limits: DownloadLimits

    public init(
        url: String, directory: String, partialName: String? = nil, validator: String? = nil, fileMode: mode_t,
        limits: DownloadLimits = DownloadLimits()
    ) {
        self.url = url
        self.directory = directory
        self.partialName = partialName
        self.validator = validator
        self.fileMode = fileMode
        self.limits = limits
    }
}

/// A complete, synced download, still under its partial name: the caller moves it into place.
public struct DownloadResult: Equatable, Sendable {
    public let partialName: String
    /// The name to give the file once it is recorded (the partial name without `.part`).
    public let fileName: String
    public let size: Int
    public let sha256: String
    public let contentType: String?
    /// The URL the content came from, after redirects.
    public let finalURL: String
}

/// What happens during a download, for progress display and the attempt log.
public enum DownloadEvent: Sendable {
    case attemptStarted(url: String, offset: Int)
    /// The server started sending content into `partialName`; record `validator` so a later run
    /// can resume with If-Range.
    case responseStarted(partialName: String, validator: String?)
    case progress(received: Int, total: Int?)
    case attemptFinished(httpStatus: Int?, bytes: Int, error: String?)
    case waiting(seconds: Double, reason: String)
}

/// Downloads one URL into a partial file with resume, retries and content checks.
///
/// Resumes with a Range request (and If-Range, so a changed file starts over cleanly); retries
/// connection errors, timeouts, 408, 429 and 5xx with exponential backoff and jitter, honouring
/// Retry-After; refuses bodies that are not audio, and audio that cannot be played, and deletes them.
public final class Downloader {
    private let policy: DownloadPolicy
    private let transfer: Transfer
    private let stop: StopEvent?

    /// - Parameter stop: ends a download under way (an exchange, a wait before a retry) with
    ///   `DownloadError.stopped` when signalled.
    public init(policy: DownloadPolicy, stop: StopEvent? = nil) {
        self.policy = policy
        self.stop = stop
        self.transfer = Transfer(policy: policy, stop: stop)
    }

    /// A JSON chapters file holds a few hundred bytes a chapter.
    public static let maximumChaptersBytes = 2 * 1024 * 1024

    /// The Podcasting 2.0 JSON chapters file at `url`, into memory, on this downloader's handle:
    /// one GET as a feed is fetched (http and https only, compression accepted), no retries.
    /// - Throws: `DownloadError` (`.chaptersTooLarge` past `maximumChaptersBytes`).
    public func fetchChapters(_ url: String) throws(DownloadError) -> [UInt8] {
        try transfer.fetchIntoMemory(
            url, maximumBytes: Self.maximumChaptersBytes, acceptCompression: true, policy: policy,
            tooLarge: .chaptersTooLarge(url: url, limit: Self.maximumChaptersBytes))
    }

    /// A `podcast:transcript` file at `url`, into memory, as `fetchChapters` fetches chapters.
    /// - Throws: `DownloadError` (`.transcriptTooLarge` past `maximumBytes`).
    public func fetchTranscript(_ url: String, maximumBytes: Int) throws(DownloadError) -> [UInt8] {
        try transfer.fetchIntoMemory(
            url, maximumBytes: maximumBytes, acceptCompression: true, policy: policy,
            tooLarge: .transcriptTooLarge(url: url, limit: maximumBytes))
    }

    /// - Throws: `DownloadError`. A partial file that can be resumed is left in place (also when
    ///   stopped).
    public func download(_ request: DownloadRequest, onEvent: (DownloadEvent) -> Void) throws(DownloadError)
        -> DownloadResult
    {
        try DownloadError.checkFetchable(request.url)

        return try withoutActuallyEscaping(onEvent) { (onEvent) throws(DownloadError) -> DownloadResult in
            let file = try PartialFile(
                directory: request.directory, name: request.partialName, validator: request.validator,
                mode: request.fileMode)
            let guardrail = Guardrail(limits: request.limits, url: request.url, directory: request.directory)
            if let stop = guardrail.check(size: file.size, force: true) { throw stop }
            var attemptNumber = 0
            while true {
                attemptNumber += 1
                let outcome = try attempt(url: request.url, file: file, guardrail: guardrail, onEvent: onEvent)
                switch outcome {
                case .complete(let result):
                    return result
                case .restart:
                    try file.truncate()
                    if attemptNumber >= policy.maxAttempts {
                        throw .network(
                            code: 0, message: "the server keeps sending mismatched ranges", url: request.url,
                            attempts: attemptNumber)
                    }
                case .retry(let error, let retryAfter):
                    guard attemptNumber < policy.maxAttempts else { throw error.afterAttempts(attemptNumber) }
                    if let retryAfter, retryAfter > policy.maxRetryAfter {
                        throw .retryTooLate(url: request.url, seconds: retryAfter)
                    }
                    let seconds = retryAfter.map(Double.init) ?? policy.delay(beforeRetry: attemptNumber)
                    onEvent(.waiting(seconds: seconds, reason: error.description))
                    if let stop {
                        guard stop.sleep(seconds: seconds) else { throw .stopped(url: request.url) }
                    } else {
                        DownloadPolicy.sleep(seconds: seconds)
                    }
                }
            }
        }
    }

    private enum Outcome {
        case complete(DownloadResult)
        case restart
        case retry(DownloadError, retryAfter: Int?)
    }

    /// One exchange with the server, and what to do next.
    private func attempt(
        url: String, file: PartialFile, guardrail: Guardrail, onEvent: @escaping (DownloadEvent) -> Void
    ) throws(DownloadError) -> Outcome {
        onEvent(.attemptStarted(url: url, offset: file.size))
        let attempt = Attempt(
            file: file, guardrail: guardrail, rateLimiter: policy.rateLimiter,
            effectiveURL: { [transfer] in transfer.effectiveURL }, onEvent: onEvent)
        var exchange = Transfer.Exchange(url: url)
        if file.size > 0 {
            exchange.range = "\(file.size)-"
            if let validator = file.validator { exchange.headers = ["If-Range: \(validator)"] }
        }
        let result = transfer.perform(exchange, sink: attempt)
        let status = attempt.headers.status == 0 ? nil : attempt.headers.status
        let outcome: Outcome
        do throws(DownloadError) {
            if result.stopped { throw .stopped(url: url) }
            outcome = try judge(attempt, result, url: url, file: file)
        } catch {
            onEvent(.attemptFinished(httpStatus: status, bytes: attempt.bytesReceived, error: error.description))
            throw error
        }
        switch outcome {
        case .retry(let error, _):
            onEvent(.attemptFinished(httpStatus: status, bytes: attempt.bytesReceived, error: error.description))
        case .restart:
            onEvent(
                .attemptFinished(
                    httpStatus: status, bytes: attempt.bytesReceived,
                    error: "the server's range did not continue the partial file"))
        case .complete:
            onEvent(.attemptFinished(httpStatus: status, bytes: attempt.bytesReceived, error: nil))
        }
        return outcome
    }

    private func judge(_ attempt: Attempt, _ result: Transfer.Result, url: String, file: PartialFile)
        throws(DownloadError) -> Outcome
    {
        switch attempt.stop {
        case .storage(let path, let code):
            throw .storage(path: path, errno: code)
        case .limit(let error):
            if case .lowDiskSpace = error {} else { file.delete() }
            throw error
        case .notAudio(let reason):
            file.delete()
            throw .notAudio(url: url, reason: reason)
        case .rangeMismatch:
            return .restart
        case .httpStatus(let status):
            let error = DownloadError.http(status: status, url: url, attempts: 1)
            guard status == 408 || status == 429 || status >= 500 else { throw error }
            return .retry(error, retryAfter: attempt.headers.retryAfter)
        case nil:
            break
        }
        guard result.code == CURLE_OK else {
            return .retry(try result.retryableError(url: url, policy: policy), retryAfter: nil)
        }
        guard attempt.finishBody() else {
            return try judge(attempt, result, url: url, file: file)
        }
        if attempt.discardingBody {
            // 416: complete already if the server's length is what we have.
            guard file.size > 0, attempt.headers.contentRange?.total == file.size else { return .restart }
        } else if let expected = attempt.expectedSize, expected != file.size {
            return .retry(.incomplete(url: url, received: file.size, expected: expected), retryAfter: nil)
        }
        guard let partialName = file.name else { return .restart }
        let sha256 = try file.finish()
        let container = try check(file, url: url)
        let served = attempt.discardingBody ? nil : attempt.headers.mediaType
        return .complete(
            DownloadResult(
                partialName: partialName, fileName: String(partialName.dropLast(".part".count)), size: file.size,
                sha256: sha256, contentType: Self.recordedType(served: served, sniffed: container),
                finalURL: result.effectiveURL))
    }

    /// What the complete file is, from its first bytes and its structure: a body that is not
    /// audio, or audio that cannot be played, is deleted.
    private func check(_ file: PartialFile, url: String) throws(DownloadError) -> AudioContainer {
        switch AudioSniffer.verdict(file.head) {
        case .notAudio(let what):
            file.delete()
            throw .notAudio(url: url, reason: what)
        case .audio(let container):
            guard let path = file.path, let bytes = FileBytes(path: path),
                let problem = AudioFileCheck.problem(in: bytes, container: container)
            else { return container }
            file.delete()
            throw .unplayable(url: url, reason: problem)
        }
    }

    /// The content type recorded with the file: the server's when it names what the file is,
    /// else (`application/octet-stream`, none, a wrong one, a bare `audio/ogg`) the sniffed one,
    /// so `list` and `show` can say what each file is.
    static func recordedType(served: String?, sniffed: AudioContainer) -> String {
        guard let served, let claimed = AudioContainer(mediaType: served) else { return sniffed.mediaType }
        switch (claimed, sniffed) {
        case (.mpeg(let said), .mpeg(let found)) where said == found || (said == nil && found == 3): return served
        case (.mp4, .mp4), (.adts, .adts), (.flac, .flac): return served
        case (.ogg(let said), .ogg(let found)) where said == found: return served
        default: return sniffed.mediaType
        }
    }

}

extension Transfer.Result {
    /// The error a failed exchange means: returned when trying again may help (connection
    /// failures, timeouts, a cut-off body), thrown when it cannot.
    func retryableError(url: String, policy: DownloadPolicy) throws(DownloadError) -> DownloadError {
        // Not retried: trying again within a second would not make the host answer, and the run
        // remembers it (set only with the policy's `UnreachableHosts`).
        if let unreachable { throw .unreachable(url: url, host: unreachable) }
        let error = DownloadError.network(code: Int32(code.rawValue), message: message, url: url, attempts: 1)
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            throw .redirectRefused(from: url, to: redirectURL ?? effectiveURL)
        case CURLE_TOO_MANY_REDIRECTS:
            throw .tooManyRedirects(url: url, limit: policy.maxRedirects)
        case CURLE_URL_MALFORMAT:
            throw .invalidURL(url)
        case CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING,
            CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_COULDNT_RESOLVE_PROXY:
            return error
        default:
            throw error
        }
    }
}

extension DownloadError {
    /// The same error, saying how many attempts were made.
    func afterAttempts(_ attempts: Int) -> DownloadError {
        switch self {
        case .http(let status, let url, _): return .http(status: status, url: url, attempts: attempts)
        case .network(let code, let message, let url, _):
            return .network(code: code, message: message, url: url, attempts: attempts)
        default: return self
        }
    }
}
