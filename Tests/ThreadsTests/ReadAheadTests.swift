import Foundation
import Synchronization
import Testing

@testable import Threads

/// Work made ahead on a thread of its own (`import`'s fetching and parsing): handed over in
/// order, never more than `capacity` ahead, and the thread gone once its owner stops it.
@Suite struct ReadAheadTests {
    @Test func itemsComeInOrderAndTheThreadStaysWithinItsCapacity() throws {
        let made = Atomic(0)
        let reader = ReadAhead(name: "test.ahead", count: 20, capacity: 3) { _ in
            { index in
                made.add(1, ordering: .sequentiallyConsistent)
                return index * 10
            }
        }
        usleep(100_000)
        // Three made and waiting, none taken: the thread waits for room.
        #expect(made.load(ordering: .sequentiallyConsistent) == 3)
        var taken: [Int] = []
        while let item = try reader.next() {
            taken.append(item)
            #expect(made.load(ordering: .sequentiallyConsistent) <= taken.count + 3)
        }
        #expect(taken == (0..<20).map { $0 * 10 })
        #expect(try reader.next() == nil)
    }

    @Test func beforeWaitingRunsOnlyWhenTheNextItemIsNotMadeYet() throws {
        let reader = ReadAhead(name: "test.ahead", count: 2, capacity: 1) { _ in
            { index in
                if index == 1 { usleep(200_000) }
                return index
            }
        }
        usleep(100_000)
        var waits = 0
        #expect(reader.next { waits += 1 } == 0)
        #expect(waits == 0)
        #expect(reader.next { waits += 1 } == 1)
        #expect(waits == 1)
    }

    /// Stopped while the thread makes an item (waiting on the stop event, as a fetch does) or
    /// waits for room, `stop` returns at once with the thread gone.
    @Test func stopEndsAThreadMakingAnItemOrWaitingForRoom() {
        for blockedInProducer in [true, false] {
            let reader = ReadAhead(name: "test.stopahead", count: 10, capacity: 1) { stop in
                { index in
                    if blockedInProducer {
                        var none: [pollfd] = []
                        _ = stop.wait(for: &none, timeout: nil)
                    }
                    return index
                }
            }
            usleep(50_000)
            let started = Date()
            reader.stop()
            #expect(Date().timeIntervalSince(started) < 0.5)
            #expect(ServiceThread.running(named: "test.stopahead").isEmpty)
        }
    }
}
