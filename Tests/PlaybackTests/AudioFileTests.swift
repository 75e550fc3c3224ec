import Foundation
import Synchronization
import TestSupport
import Testing
import Threads

@testable import Playback

#if canImport(Glibc)
    import Glibc
#endif

/// A file read while another thread still writes it (an episode played while it downloads).
@Suite struct AudioFileTests {
    /// The times the kernel put thread `tid` of this process to sleep and woke it, so far.
    static func wakeups(ofThread tid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/task/\(tid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") })
        return try #require(Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)))
    }

    /// A read that has caught up with the writer sleeps until the writer signals (a reader that
    /// looked again every 20 ms would wake some 50 times a second, on battery too), wakes at once
    /// when bytes come, and ends when the writer is done.
    @Test func aReadThatCaughtUpSleepsUntilTheWriterSignals() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("episode.mp3.part").path
        try Data(repeating: 1, count: 1_000).write(to: URL(fileURLWithPath: path))
        let writer = GrowingFileDecoderTests.Writer()
        let file = try AudioFile(path: path, arrival: writer.arrival)
        var first = [UInt8](repeating: 0, count: 4_096)
        #expect(file.read(into: &first, count: first.count) == 1_000)

        let reader = Mutex<(tid: Int32, results: [Int])>((0, []))
        let thread = Thread {
            // /proc/thread-self links to "PID/task/TID" (gettid is not imported).
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            reader.withLock { $0.tid = Int32(link.split(separator: "/").last ?? "") ?? -1 }
            var bytes = [UInt8](repeating: 0, count: 4_096)
            for _ in 0..<2 {
                let got = file.read(into: &bytes, count: bytes.count)
                reader.withLock { $0.results.append(got) }
            }
        }
        thread.start()
        #expect(waitUntil(timeout: 10) { reader.withLock { $0.tid } != 0 })
        let tid = reader.withLock { $0.tid }
        try #require(tid > 0)
        usleep(200_000)
        let before = try Self.wakeups(ofThread: tid)
        usleep(1_000_000)
        let asleep = try Self.wakeups(ofThread: tid) - before
        #expect(asleep <= 3, "the waiting read woke \(asleep) times in a second")
        #expect(reader.withLock { $0.results }.isEmpty)

        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 2, count: 500))
        handle.closeFile()
        let told = Date()
        writer.changes.signal()
        #expect(waitUntil(timeout: 10) { reader.withLock { $0.results } == [500] })
        // At once: well under the second a busy machine may add.
        #expect(Date().timeIntervalSince(told) < 1)
        writer.finish()
        #expect(
            waitUntil(timeout: 10) { reader.withLock { $0.results } == [500, 0] },
            "the end of the arrival ends the read")
    }
}
