import AudioFormats
import CFuzz

#if canImport(Glibc)
    import Glibc
#endif

/// One input, as the first bytes of a download and as a whole file: the sniffer's verdict, the
/// structural check of whatever container it names (and of every other container), the MP4
/// layout, the embedded picture of every kind of tag, and the chapters of every kind. Any crash, hang, sanitizer report or
/// unbounded allocation is a finding; verdicts and problems are expected.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemoryBytes(bytes)
    let verdict = AudioSniffer.verdict(Array(bytes.prefix(AudioSniffer.windowSize)))
    let containers: [AudioContainer] = [.mp4, .ogg(.opus), .ogg(.vorbis), .flac, .adts, .mpeg(layer: nil)]
    if case .audio(let container) = verdict { _ = AudioFileCheck.problem(in: source, container: container) }
    for container in containers { _ = AudioFileCheck.problem(in: source, container: container) }
    _ = MP4Layout.indexFollowsAudio(in: source)
    _ = EmbeddedPictures.front(in: source, limit: 1 << 20)
    _ = EmbeddedChapters.read(in: source)
    for type in ["audio/ogg; codecs=opus", String(decoding: bytes.prefix(64), as: UTF8.self)] {
        _ = AudioContainer(mediaType: type)
    }
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv as UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
