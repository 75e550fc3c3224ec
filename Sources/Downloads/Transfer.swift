import CCurl
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// One libcurl easy handle, owned and cleaned up by this object, set up for podcli's rules:
/// only http and https (also after a redirect), TLS verified, bounded redirects, connect and
/// low-speed timeouts, podcli's User-Agent. It performs one HTTP exchange at a time and hands
/// headers, body and progress to a `TransferSink` (an `Attempt` of a download, a `FeedExchange`,
/// a `MemoryReply` of an image or an API request). GET, or POST and PUT with a body; HTTP basic
/// auth through libcurl's options.
///
/// The exchange runs on a multi handle of its own (perform, then poll), so that a `StopEvent`
/// can end it at once from another thread: its descriptor is one of the poll's.
///
/// Not `Sendable`: a handle is used by one thread at a time.
final class Transfer {
    private let handle: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Ends an exchange under way when signalled (the player quit while this was fetching).
    private let stop: StopEvent?
    /// The first option libcurl refused when the handle was set up, if any.
    private var refused: (option: String, code: CURLcode)?
    /// The run's hosts found unreachable: not tried again, and added to.
    private let unreachableHosts: UnreachableHosts?

    /// What libcurl said about one exchange.
    struct Result {
        let code: CURLcode
        /// The curl error buffer, else curl_easy_strerror.
        let message: String
        let effectiveURL: String
        /// Where a refused redirect wanted to go.
        let redirectURL: String?
        /// Ended by the stop event, not by the server.
        var stopped = false
        /// The host could not be reached (now, or earlier in the run); only with the run's memory.
        var unreachable: UnreachableHost?
    }

    init(policy: DownloadPolicy, stop: StopEvent? = nil) {
        CurlLibrary.initialize()
        guard let handle = curl_easy_init(), let multi = curl_multi_init() else {
            fatalError("libcurl could not create a handle (out of memory)")
        }
        self.handle = handle
        self.multi = multi
        self.stop = stop
        unreachableHosts = policy.unreachableHosts
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // Every option is one of podcli's rules (http/https only, TLS verified, ...): a libcurl
        // that refuses one gets no transfer to run (`perform` says which option).
        let options: [(String, CURLcode)] = [
            ("ERRORBUFFER", ccurl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)),
            ("PROTOCOLS_STR", ccurl_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https")),
            ("REDIR_PROTOCOLS_STR", ccurl_setopt_str(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")),
            ("FOLLOWLOCATION", ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)),
            ("MAXREDIRS", ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, policy.maxRedirects)),
            ("SSL_VERIFYPEER", ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)),
            ("SSL_VERIFYHOST", ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)),
            ("CONNECTTIMEOUT", ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, policy.connectTimeout)),
            ("LOW_SPEED_LIMIT", ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, policy.lowSpeedLimit)),
            ("LOW_SPEED_TIME", ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, policy.lowSpeedTime)),
            ("USERAGENT", ccurl_setopt_str(handle, CURLOPT_USERAGENT, policy.userAgent)),
            ("NOSIGNAL", ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)),
            // Larger reads mean fewer callbacks and writes on fast links.
            ("BUFFERSIZE", ccurl_setopt_long(handle, CURLOPT_BUFFERSIZE, 256 * 1024)),
            ("WRITEFUNCTION", ccurl_setopt_write(handle, bodyCallback, nil)),
            ("HEADERFUNCTION", ccurl_setopt_header(handle, headerCallback, nil)),
            ("XFERINFOFUNCTION", ccurl_setopt_xferinfo(handle, progressCallback, nil)),
        ]
        refused = options.first { $0.1 != CURLE_OK }.map { (option: "CURLOPT_" + $0.0, code: $0.1) }
    }

    deinit {
        curl_multi_cleanup(multi)
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
        var method = HTTPMethod.get
        /// What a POST or PUT sends (an empty body when nil).
        var body: [UInt8]?
        /// Sent as HTTP basic auth through libcurl's own options, never in the URL; libcurl sends
        /// them only to the URL's own host, scheme and port, not to where a redirect leads.
        var credentials: BasicCredentials?
    }

    /// Performs one exchange, handing headers, body and progress to `sink`.
    func perform(_ exchange: Exchange, sink: any TransferSink) -> Result {
        if let known = unreachableHosts?.failure(for: exchange.url) {
            return Result(
                code: CURLE_COULDNT_CONNECT, message: known.description, effectiveURL: exchange.url, redirectURL: nil,
                unreachable: known)
        }
        errorBuffer[0] = 0
        var headers: UnsafeMutablePointer<curl_slist>?
        for line in exchange.headers { headers = curl_slist_append(headers, line) }
        defer { curl_slist_free_all(headers) }
        let box = SinkBox(sink)
        let context = Unmanaged.passUnretained(box).toOpaque()
        let options: [(String, CURLcode)] = [
            ("URL", ccurl_setopt_str(handle, CURLOPT_URL, exchange.url)),
            ("RANGE", ccurl_setopt_str(handle, CURLOPT_RANGE, exchange.range)),
            (
                "ACCEPT_ENCODING",
                ccurl_setopt_str(handle, CURLOPT_ACCEPT_ENCODING, exchange.acceptCompression ? "" : nil)
            ),
            ("HTTPHEADER", ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)),
            // Basic is libcurl's default scheme; nil clears what an earlier exchange of the handle set.
            ("USERNAME", ccurl_setopt_str(handle, CURLOPT_USERNAME, exchange.credentials?.user)),
            ("PASSWORD", ccurl_setopt_str(handle, CURLOPT_PASSWORD, exchange.credentials?.password)),
            ("WRITEDATA", ccurl_setopt_ptr(handle, CURLOPT_WRITEDATA, context)),
            ("HEADERDATA", ccurl_setopt_ptr(handle, CURLOPT_HEADERDATA, context)),
            ("XFERINFODATA", ccurl_setopt_ptr(handle, CURLOPT_XFERINFODATA, context)),
        ]
        let refusedNow = (options + methodOptions(exchange)).first { $0.1 != CURLE_OK }
        if let refused = refused ?? refusedNow.map({ ("CURLOPT_" + $0.0, $0.1) }) {
            return Result(
                code: refused.1,
                message: "libcurl refused \(refused.0): \(String(cString: curl_easy_strerror(refused.1)))",
                effectiveURL: exchange.url, redirectURL: nil)
        }
        let (code, stopped) = withExtendedLifetime(box) { run() }

        let message =
            stopped
            ? "stopped" : errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        // Only a run that remembers hosts fails at once (`Downloader`): without one (`play`), a
        // refused connection is a network error like another, retried with backoff.
        let unreachable = stopped || unreachableHosts == nil ? nil : unreachableHost(after: code)
        if let unreachable { unreachableHosts?.remember(unreachable) }
        return Result(
            code: code, message: message, effectiveURL: effectiveURL, redirectURL: string(CURLINFO_REDIRECT_URL),
            stopped: stopped, unreachable: unreachable)
    }

    /// The request line's method and the body, set for every exchange: the handle is reused, and a
    /// GET after a POST must not post again.
    private func methodOptions(_ exchange: Exchange) -> [(String, CURLcode)] {
        guard exchange.method != .get else {
            return [
                ("HTTPGET", ccurl_setopt_long(handle, CURLOPT_HTTPGET, 1)),
                ("CUSTOMREQUEST", ccurl_setopt_str(handle, CURLOPT_CUSTOMREQUEST, nil)),
            ]
        }
        let body = exchange.body ?? []
        // The size first: COPYPOSTFIELDS copies that many bytes.
        let sized = ccurl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
        // The byte past the body gives an empty body an address: a null one would make libcurl
        // read the body from stdin.
        let copied = (body + [0]).withUnsafeBytes {
            ccurl_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress))
        }
        return [
            ("POSTFIELDSIZE", sized),
            ("COPYPOSTFIELDS", copied),
            ("CUSTOMREQUEST", ccurl_setopt_str(handle, CURLOPT_CUSTOMREQUEST, exchange.method == .put ? "PUT" : nil)),
        ]
    }

    /// The host of the last request, when `code` says it could not be reached at all. After a
    /// redirect that is the host redirected to (libcurl's effective URL is the one it tried).
    private func unreachableHost(after code: CURLcode) -> UnreachableHost? {
        guard code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST,
            let name = UnreachableHost.name(of: effectiveURL)
        else { return nil }
        guard code == CURLE_COULDNT_CONNECT else { return UnreachableHost(name: name, reason: .notFound) }
        var osErrno = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_OS_ERRNO, &osErrno)
        switch Int32(osErrno) {
        case ECONNREFUSED: return UnreachableHost(name: name, reason: .refused)
        case 0: return UnreachableHost(name: name, reason: .other(String(cString: curl_easy_strerror(code))))
        default: return UnreachableHost(name: name, reason: .other(String(cString: strerror(Int32(osErrno)))))
        }
    }

    /// The exchange on the multi handle, as curl's multi-single example runs it: perform, then
    /// poll (here also on the stop event) until nothing runs. Returns the easy handle's result,
    /// and whether the stop event ended it first.
    private func run() -> (CURLcode, stopped: Bool) {
        let added = curl_multi_add_handle(multi, handle)
        guard added == CURLM_OK else { return (CURLE_OUT_OF_MEMORY, false) }
        defer { curl_multi_remove_handle(multi, handle) }
        var running: Int32 = 1
        while true {
            let performed = curl_multi_perform(multi, &running)
            guard performed == CURLM_OK else { return (CURLE_OUT_OF_MEMORY, false) }
            if running == 0 { break }
            if stop?.isSignalled == true { return (CURLE_ABORTED_BY_CALLBACK, true) }
            var stopDescriptor = curl_waitfd(fd: stop?.descriptor ?? -1, events: Int16(CURL_WAIT_POLLIN), revents: 0)
            guard curl_multi_poll(multi, &stopDescriptor, stop == nil ? 0 : 1, 1000, nil) == CURLM_OK else {
                return (CURLE_OUT_OF_MEMORY, false)
            }
        }
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { return (message.pointee.data.result, false) }
        }
        return (CURLE_OK, false)
    }

    /// The URL of the last request made, after redirects.
    var effectiveURL: String { string(CURLINFO_EFFECTIVE_URL) ?? "" }

    private func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_getinfo_str(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

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
