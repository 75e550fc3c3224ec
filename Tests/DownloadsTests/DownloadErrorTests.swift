import Testing

@testable import Downloads

/// The words of a download's failures, where a count of bytes is in them.
@Suite struct DownloadErrorTests {
    @Test func oneByteIsSingularAndMoreArePlural() {
        #expect(
            DownloadError.lowDiskSpace(path: "/data/a.mp3.part", floor: 1, free: 0).description
                == "stopped writing in /data/a.mp3.part: only 0 MiB of the disk is free, and min-free keeps 1 byte free; "
                + "the next run resumes it")
        #expect(
            DownloadError.lowDiskSpace(path: "/data/a.mp3.part", floor: 1000, free: 0).description
                == "stopped writing in /data/a.mp3.part: only 0 MiB of the disk is free, and min-free keeps 1000 bytes "
                + "free; the next run resumes it")
        #expect(
            DownloadError.incomplete(url: "http://host/a.mp3", received: 0, expected: 1).description
                == "download of http://host/a.mp3 ended early: 0 of 1 byte")
        #expect(
            DownloadError.incomplete(url: "http://host/a.mp3", received: 10, expected: 20).description
                == "download of http://host/a.mp3 ended early: 10 of 20 bytes")
    }
}
