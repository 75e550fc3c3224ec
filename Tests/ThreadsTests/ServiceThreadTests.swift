import Foundation
import Synchronization
import Testing

@testable import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// Threads that are told to stop and joined: what a command relies on to leave nothing running
/// when it exits.
@Suite struct ServiceThreadTests {
    /// A body blocked in poll(2) on a pipe that never becomes readable wakes when stopped, and
    /// `stop` returns only once the body has returned.
    @Test func stopWakesABodyBlockedInPollAndWaitsForItToReturn() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { for end in pipeEnds { close(end) } }
        let reader = pipeEnds[0]
        let returned = Atomic(false)
        let waited = Atomic(false)
        let thread = ServiceThread(name: "test.poll") { stop in
            var descriptors = [pollfd(fd: reader, events: Int16(POLLIN), revents: 0)]
            // No timeout: only the stop event can end this wait.
            waited.store(!stop.wait(for: &descriptors, timeout: nil), ordering: .sequentiallyConsistent)
            returned.store(true, ordering: .sequentiallyConsistent)
        }
        usleep(50_000)
        let returnedEarly = returned.load(ordering: .sequentiallyConsistent)
        #expect(!returnedEarly)
        let started = Date()
        thread.stop()
        let returnedBeforeStopReturned = returned.load(ordering: .sequentiallyConsistent)
        let saidStopped = waited.load(ordering: .sequentiallyConsistent)
        #expect(returnedBeforeStopReturned)
        #expect(saidStopped, "the wait said it was stopped")
        // At once, not at a timeout: well under a second even with the other core busy.
        #expect(Date().timeIntervalSince(started) < 0.5)
        thread.stop()  // idempotent
    }

    /// A descriptor that becomes ready ends the wait with `true` and says which it was.
    @Test func aReadyDescriptorEndsTheWaitAndIsReported() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { for end in pipeEnds { close(end) } }
        var byte: UInt8 = 1
        #expect(write(pipeEnds[1], &byte, 1) == 1)
        let stop = StopEvent()
        var descriptors = [pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)]
        #expect(stop.wait(for: &descriptors, timeout: 5))
        #expect(descriptors[0].revents & Int16(POLLIN) != 0)
    }

    /// A sleep before a retry ends as soon as another thread signals, and says so.
    @Test func aSleepEndsWhenSignalled() throws {
        let stop = StopEvent()
        #expect(stop.sleep(seconds: 0.01))
        let signaller = ServiceThread(name: "test.signal") { _ in
            usleep(50_000)
            stop.signal()
        }
        let started = Date()
        #expect(!stop.sleep(seconds: 30))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(stop.isSignalled)
        signaller.join()
    }

    /// `join` waits for work that ends by itself, without stopping it.
    @Test func joinWaitsForTheBodyWithoutStoppingIt() throws {
        let finished = Atomic(0)
        let thread = ServiceThread(name: "test.join") { stop in
            usleep(100_000)
            finished.store(stop.isSignalled ? -1 : 1, ordering: .sequentiallyConsistent)
        }
        thread.join()
        let outcome = finished.load(ordering: .sequentiallyConsistent)
        #expect(outcome == 1)
    }
}
