import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// `sync.log`: one block per run, appended, in a directory made for it, kept bounded.
@Suite struct SyncLogTests {
    @Test func eachRunAppendsItsBlockAndTheDirectoryIsMadeForIt() throws {
        let home = try TemporaryDirectory(prefix: "podcli-log")
        let log = SyncLog(directory: home.path + "/state/podcli")
        log.append(["first run", "  failed: #1 a: no"])
        log.append(["second run"])
        #expect(try String(contentsOfFile: log.path, encoding: .utf8) == "first run\n  failed: #1 a: no\nsecond run\n")
        let mode = try FileManager.default.attributesOfItem(atPath: log.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func pastItsLimitTheLogBecomesTheOldOneAndANewOneStarts() throws {
        let home = try TemporaryDirectory(prefix: "podcli-log")
        var log = SyncLog(directory: home.path)
        log.limit = 100
        let old = String(repeating: "an old line of an old sync\n", count: 4)
        try home.write(old, to: "sync.log")
        try home.write("the one before\n", to: "sync.log.1")
        log.append(["this run"])
        #expect(try String(contentsOfFile: log.path + ".1", encoding: .utf8) == old)
        #expect(try String(contentsOfFile: log.path, encoding: .utf8) == "this run\n")
        // Under the limit it grows.
        log.append(["next run"])
        #expect(try String(contentsOfFile: log.path, encoding: .utf8) == "this run\nnext run\n")
    }

    @Test func aLogThatCannotBeWrittenNeverFailsTheSync() throws {
        let home = try TemporaryDirectory(prefix: "podcli-log")
        try FileManager.default.createDirectory(atPath: home.path + "/sync.log", withIntermediateDirectories: true)
        SyncLog(directory: home.path).append(["lost"])
        #expect(FileManager.default.fileExists(atPath: home.path + "/sync.log/"))
    }
}
