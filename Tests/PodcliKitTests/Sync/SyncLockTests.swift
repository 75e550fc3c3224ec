import Foundation
import Synchronization
import TestSupport
import Testing

@testable import PodcliKit

/// One sync at a time per data directory: a second is turned away naming the first's pid, or
/// waits for it with `wait`.
@Suite struct SyncLockTests {
    @Test func aSecondSyncIsTurnedAwayNamingTheHolderAndOneThatWaitsGetsItOnceFreed() throws {
        let home = try TemporaryDirectory(prefix: "podcli-lock")
        var first: SyncLock? = try SyncLock(directory: home.path, wait: false)
        do {
            _ = try SyncLock(directory: home.path, wait: false)
            Issue.record("a second lock was granted while the first was held")
        } catch PodcliError.syncRunning(let pid) {
            #expect(pid == Int(getpid()))
            #expect(
                "\(PodcliError.syncRunning(pid: pid))"
                    == "another podcli sync is running (pid \(getpid())); --wait waits for it")
        }

        // One that waits, on a thread of its own, has it only once the first lets go.
        let granted = Mutex(false)
        let waiter = Thread {
            let lock = try? SyncLock(directory: home.path, wait: true)
            granted.withLock { $0 = lock != nil }
        }
        waiter.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!granted.withLock { $0 }, "granted while the first still held it")
        // Held until here (Swift may end an unread variable's lifetime early), then let go.
        withExtendedLifetime(first) {}
        first = nil
        #expect(waitUntil(timeout: 10) { granted.withLock { $0 } })
    }

    @Test func aLockThatCannotBeMadeSaysWhere() throws {
        let missing = "/nonexistent-\(UUID().uuidString)"
        #expect {
            try SyncLock(directory: missing, wait: false)
        } throws: { error in
            guard case PodcliError.syncLock(let path, let code) = error else { return false }
            return path == missing + "/sync.lock" && code == ENOENT
        }
    }

    /// A FIFO (or anything but a regular file of ours) at `sync.lock` is refused, never written.
    @Test func aLockThatIsNotARegularFileIsRefused() throws {
        let home = try TemporaryDirectory(prefix: "podcli-lock")
        #expect(mkfifo(home.path + "/sync.lock", 0o600) == 0)
        #expect {
            try SyncLock(directory: home.path, wait: false)
        } throws: { error in
            "\(error)"
                == "cannot use \(home.path)/sync.lock: it is not a regular file; remove it (podcli makes it anew)"
        }
    }
}
