import Foundation
import Testing

@testable import Downloads

@Suite struct ResponseHeadersTests {
    private func headers(_ lines: [String]) -> ResponseHeaders {
        var headers = ResponseHeaders()
        for line in lines { headers.take(line: line + "\r\n") }
        return headers
    }

    @Test func aRedirectsHeadersAreReplacedByTheFinalResponse() {
        let parsed = headers([
            "HTTP/1.1 302 Found", "Location: /b", "ETag: \"old\"", "",
            "HTTP/1.1 200 OK", "Content-Type: audio/mpeg; charset=binary", "Content-Length: 42",
        ])
        #expect(parsed.status == 200)
        #expect(parsed.mediaType == "audio/mpeg")
        #expect(parsed.contentLength == 42)
        #expect(parsed.validator == nil)
    }

    @Test(arguments: ["Content-Type:", "Content-Type: ;", "Content-Type:  ; charset=utf-8"])
    func anEmptyContentTypeHasAnEmptyMediaType(line: String) {
        #expect(headers(["HTTP/1.1 200 OK", line]).mediaType == "")
    }

    @Test func contentRangeOfPartialAndUnsatisfiableAnswers() {
        let partial = headers(["HTTP/1.1 206 Partial Content", "Content-Range: bytes 100-199/200"])
        #expect(partial.contentRange?.start == 100)
        #expect(partial.contentRange?.total == 200)
        let unsatisfiable = headers(["HTTP/1.1 416 Range Not Satisfiable", "Content-Range: bytes */200"])
        #expect(unsatisfiable.contentRange?.start == nil)
        #expect(unsatisfiable.contentRange?.total == 200)
    }

    @Test func retryAfterInSecondsOrAsADate() {
        #expect(headers(["HTTP/1.1 503 x", "Retry-After: 7"]).retryAfter == 7)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let inTen = formatter.string(from: Date().addingTimeInterval(10))
        let seconds = headers(["HTTP/1.1 429 x", "Retry-After: \(inTen)"]).retryAfter
        #expect(seconds != nil && (8...11).contains(seconds!))
        #expect(headers(["HTTP/1.1 503 x", "Retry-After: soon"]).retryAfter == nil)
    }

    @Test func dispositionFileNamePrefersTheEncodedForm() {
        #expect(headers(["Content-Disposition: attachment; filename=\"a b.mp3\""]).dispositionFileName == "a b.mp3")
        #expect(
            headers(["Content-Disposition: attachment; filename=\"plain.mp3\"; filename*=UTF-8''%C3%A9t%C3%A9.mp3"])
                .dispositionFileName == "été.mp3")
    }

    @Test func backoffGrowsWithJitterAndIsCapped() {
        var policy = DownloadPolicy(userAgent: "test")
        policy.baseDelay = 1
        policy.maxDelay = 8
        for _ in 0..<50 {
            #expect((0.5...1).contains(policy.delay(beforeRetry: 1)))
            #expect((2...4).contains(policy.delay(beforeRetry: 3)))
            #expect((4...8).contains(policy.delay(beforeRetry: 10)))
        }
    }
}
