import CCurl

/// One libcurl easy handle, owned and cleaned up by this object, set up for podcli's rules:
/// only http and https (also after a redirect), TLS verified, bounded redirects, connect and
/// low-speed timeouts, podcli's User-Agent. It performs one HTTP exchange at a time and hands
/// headers, body and progress to a `TransferSink` (an `Attempt` of a download, a `FeedExchange`).
///
/// Not `Sendable`: a handle is used by one thread at a time.
final class Transfer {
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// What libcurl said about one exchange.
    struct Result {
        let code: CURLcode
        /// The curl error buffer, else curl_easy_strerror.
        let message: String
        let effectiveURL: String
        /// Where a refused redirect wanted to go.
        let redirectURL: String?
    }

    init(policy: DownloadPolicy) {
        curlGlobalInit
        guard let handle = curl_easy_init() else { fatalError("libcurl could not create a handle (out of memory)") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        ccurl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        ccurl_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        ccurl_setopt_str(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, policy.maxRedirects)
        ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, policy.connectTimeout)
        ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, policy.lowSpeedLimit)
        ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, policy.lowSpeedTime)
        ccurl_setopt_str(handle, CURLOPT_USERAGENT, policy.userAgent)
        ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        // Larger reads mean fewer callbacks and writes on fast links.
        ccurl_setopt_long(handle, CURLOPT_BUFFERSIZE, 256 * 1024)
        ccurl_setopt_write(handle, bodyCallback, nil)
        ccurl_setopt_header(handle, headerCallback, nil)
        ccurl_setopt_xferinfo(handle, progressCallback, nil)
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// One request: what to ask for, beyond the handle's fixed rules.
    struct Exchange {
        var url: String
        /// A byte range ("100-"), or nil for the whole body.
        var range: String?
        /// Extra request header lines ("If-Range: ...").
        var headers: [String] = []
        /// Ask for gzip/deflate and let libcurl decode it (for feeds; never for audio ranges).
        var acceptCompression = false
    }

    /// Performs one exchange, handing headers, body and progress to `sink`.
    func perform(_ exchange: Exchange, sink: any TransferSink) -> Result {
        errorBuffer[0] = 0
        ccurl_setopt_str(handle, CURLOPT_URL, exchange.url)
        ccurl_setopt_str(handle, CURLOPT_RANGE, exchange.range)
        ccurl_setopt_str(handle, CURLOPT_ACCEPT_ENCODING, exchange.acceptCompression ? "" : nil)
        var headers: UnsafeMutablePointer<curl_slist>?
        for line in exchange.headers { headers = curl_slist_append(headers, line) }
        defer { curl_slist_free_all(headers) }
        ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)

        let box = SinkBox(sink)
        let context = Unmanaged.passUnretained(box).toOpaque()
        ccurl_setopt_ptr(handle, CURLOPT_WRITEDATA, context)
        ccurl_setopt_ptr(handle, CURLOPT_HEADERDATA, context)
        ccurl_setopt_ptr(handle, CURLOPT_XFERINFODATA, context)
        let code = withExtendedLifetime(box) { curl_easy_perform(handle) }

        let message = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        return Result(
            code: code, message: message, effectiveURL: effectiveURL, redirectURL: string(CURLINFO_REDIRECT_URL))
    }

    /// The URL of the last request made, after redirects.
    var effectiveURL: String { string(CURLINFO_EFFECTIVE_URL) ?? "" }

    private func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_getinfo_str(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

/// curl_global_init must run once before any handle exists; a lazy global is initialised once.
private let curlGlobalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

/// What receives libcurl's callbacks for one exchange.
protocol TransferSink: AnyObject {
    /// One header line as libcurl delivers it (with its CRLF), for every response of a redirect chain.
    func receiveHeader(_ line: String)
    /// Returns false to stop the transfer (libcurl then fails with CURLE_WRITE_ERROR).
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Returns false to stop the transfer.
    func progress(downloaded: Int, expected: Int) -> Bool
}

/// Carries a sink through libcurl's user-data pointer (an existential has no single object).
private final class SinkBox {
    let sink: any TransferSink
    init(_ sink: any TransferSink) { self.sink = sink }

    static func from(_ context: UnsafeMutableRawPointer?) -> any TransferSink {
        Unmanaged<SinkBox>.fromOpaque(context!).takeUnretainedValue().sink
    }
}

// The callbacks capture nothing, so they convert to C function pointers.

private let bodyCallback: ccurl_data_cb = { pointer, size, count, context in
    let length = size * count
    // Any count other than `length` makes libcurl stop with CURLE_WRITE_ERROR.
    return SinkBox.from(context).receiveBody(UnsafeRawBufferPointer(start: pointer, count: length)) ? length : 0
}

private let headerCallback: ccurl_data_cb = { pointer, size, count, context in
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
    SinkBox.from(context).receiveHeader(String(decoding: bytes, as: UTF8.self))
    return length
}

private let progressCallback: ccurl_xferinfo_cb = { context, expected, downloaded, _, _ in
    // Non-zero makes libcurl stop with CURLE_ABORTED_BY_CALLBACK.
    SinkBox.from(context).progress(downloaded: Int(downloaded), expected: Int(expected)) ? 0 : 1
}
