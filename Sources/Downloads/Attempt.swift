import AudioFormats

/// One HTTP exchange of a download: it decides, as the response arrives, whether the body
/// continues the partial file, replaces it, or must be refused. Receives libcurl's callbacks
/// through `Transfer`.
final class Attempt: TransferSink {
    /// Why the attempt stopped the transfer itself.
    enum Stop: Equatable {
        case httpStatus(Int)
        /// A 206 that does not continue our partial file: start again from byte 0.
        case rangeMismatch
        case notAudio(String)
        case storage(path: String, errno: Int32)
        /// A limit of the request was reached.
        case limit(DownloadError)
    }

    private let file: PartialFile
    private let guardrail: Guardrail
    private let rateLimiter: RateLimiter?
    private let onEvent: (DownloadEvent) -> Void
    private let effectiveURL: () -> String
    private let startOffset: Int
    private(set) var headers = ResponseHeaders()
    private(set) var stop: Stop?
    /// True once the body of the final response began (or was found empty at the end).
    private(set) var began = false
    /// A 416 answer's body is not content; it is skipped.
    private(set) var discardingBody = false
    private(set) var expectedSize: Int?
    /// What the body's first bytes say it is, once they have been looked at.
    private(set) var container: AudioContainer?

    init(
        file: PartialFile, guardrail: Guardrail, rateLimiter: RateLimiter?, effectiveURL: @escaping () -> String,
        onEvent: @escaping (DownloadEvent) -> Void
    ) {
        self.file = file
        self.guardrail = guardrail
        self.rateLimiter = rateLimiter
        self.startOffset = file.size
        self.effectiveURL = effectiveURL
        self.onEvent = onEvent
    }

    var bytesReceived: Int { max(0, file.size - startOffset) }

    func receiveHeader(_ line: String) { headers.take(line: line) }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !began && !begin() { return false }
        if discardingBody { return true }
        rateLimiter?.take(bytes.count)
        if let reached = guardrail.check(size: file.size + bytes.count) {
            stop = .limit(reached)
            return false
        }
        let code = file.append(bytes)
        guard code == 0 else {
            stop = .storage(path: file.path ?? file.directory, errno: code)
            return false
        }
        return sniffIfReady(final: false)
    }

    func progress(downloaded: Int, expected: Int) -> Bool {
        onEvent(.progress(received: startOffset + downloaded, total: expected > 0 ? startOffset + expected : nil))
        return true
    }

    /// Finishes the decisions a body too short for the callbacks to make leaves open.
    func finishBody() -> Bool {
        if !began && !begin() { return false }
        return discardingBody || sniffIfReady(final: true)
    }

    /// Looks at the final response's status and headers before its first body byte.
    private func begin() -> Bool {
        began = true
        switch headers.status {
        case 206:
            guard let range = headers.contentRange, range.start == file.size else {
                stop = .rangeMismatch
                return false
            }
            expectedSize = range.total
            file.validator = headers.validator ?? file.validator
        case 200:
            do { try file.truncate() } catch { return fail(error) }
            expectedSize = headers.contentLength
            file.validator = headers.validator
        case 416:
            discardingBody = true
            return true
        default:
            stop = .httpStatus(headers.status)
            return false
        }
        if let expectedSize, let reached = guardrail.check(size: expectedSize, announced: true) {
            stop = .limit(reached)
            return false
        }
        if file.size == 0, headers.mediaType == "text/html" || headers.mediaType == "application/xhtml+xml" {
            stop = .notAudio("the server sent a \(headers.mediaType!) page, perhaps a captive portal or login page")
            return false
        }
        if file.name == nil {
            let name = FileName.forDownload(
                disposition: headers.dispositionFileName, url: effectiveURL(), mediaType: headers.mediaType)
            do { try file.create(name: name + ".part") } catch { return fail(error) }
            file.validator = headers.validator
        }
        onEvent(.responseStarted(partialName: file.name!, validator: file.validator))
        return true
    }

    private func sniffIfReady(final: Bool) -> Bool {
        guard container == nil, final || file.head.count >= AudioSniffer.windowSize else { return true }
        switch AudioSniffer.verdict(file.head) {
        case .audio(let sniffed):
            container = sniffed
            return true
        case .notAudio(let what):
            stop = .notAudio(what)
            return false
        }
    }

    private func fail(_ error: DownloadError) -> Bool {
        if case .storage(let path, let code) = error { stop = .storage(path: path, errno: code) }
        return false
    }
}
