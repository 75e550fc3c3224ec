import CFFmpeg

/// FFmpeg's words for an error code.
enum FFmpegError {
    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard cff_av_strerror(code, &buffer, buffer.count) == 0 else { return "FFmpeg error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
