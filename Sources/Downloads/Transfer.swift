import CCurl

/// One libcurl easy handle, owned and cleaned up by this object, set up for podcli's rules:
/// only http and https (also after a redirect), TLS verified, bounded redirects, connect and
/// low-speed timeouts, podcli's User-Agent. It performs one HTTP exchange at a time and hands
/// headers, body and progress to an `Attempt`.
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

    /// Performs one exchange for `url`, asking for bytes from `rangeStart` on when it is non-zero,
    /// with `ifRange` as the If-Range validator.
    func perform(url: String, rangeStart: Int, ifRange: String?, sink: Attempt) -> Result {
        errorBuffer[0] = 0
        ccurl_setopt_str(handle, CURLOPT_URL, url)
        ccurl_setopt_str(handle, CURLOPT_RANGE, rangeStart > 0 ? "\(rangeStart)-" : nil)
        var headers: UnsafeMutablePointer<curl_slist>?
        if rangeStart > 0, let ifRange { headers = curl_slist_append(nil, "If-Range: \(ifRange)") }
        defer { curl_slist_free_all(headers) }
        ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)

        let context = Unmanaged.passUnretained(sink).toOpaque()
        ccurl_setopt_ptr(handle, CURLOPT_WRITEDATA, context)
        ccurl_setopt_ptr(handle, CURLOPT_HEADERDATA, context)
        ccurl_setopt_ptr(handle, CURLOPT_XFERINFODATA, context)
        let code = withExtendedLifetime(sink) { curl_easy_perform(handle) }

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

// The callbacks capture nothing, so they convert to C function pointers; the sink travels as the
// user-data pointer.

private let bodyCallback: ccurl_data_cb = { pointer, size, count, context in
    let sink = Unmanaged<Attempt>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    // Any count other than `length` makes libcurl stop with CURLE_WRITE_ERROR.
    return sink.receiveBody(UnsafeRawBufferPointer(start: pointer, count: length)) ? length : 0
}

private let headerCallback: ccurl_data_cb = { pointer, size, count, context in
    let sink = Unmanaged<Attempt>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
    sink.receiveHeader(String(decoding: bytes, as: UTF8.self))
    return length
}

private let progressCallback: ccurl_xferinfo_cb = { context, expected, downloaded, _, _ in
    let sink = Unmanaged<Attempt>.fromOpaque(context!).takeUnretainedValue()
    // Non-zero makes libcurl stop with CURLE_ABORTED_BY_CALLBACK.
    return sink.progress(downloaded: Int(downloaded), expected: Int(expected)) ? 0 : 1
}
