import Dispatch
import Foundation
import Playback
import Testing

/// How the player's thread collects commands: at once between writes, or asleep while paused.
@Suite struct CommandQueueTests {
    @Test func commandsAreTakenOnceInTheOrderPosted() {
        let queue = CommandQueue()
        queue.post(.togglePause)
        queue.post(.quit)
        #expect(queue.take() == [.togglePause, .quit])
        #expect(queue.take().isEmpty)
    }

    @Test func aWaitEndsWhenACommandArrivesAndOtherwiseAtItsTimeout() {
        let queue = CommandQueue()
        let started = Date()
        #expect(queue.take(waitingUpTo: 0.2).isEmpty)
        #expect(Date().timeIntervalSince(started) >= 0.19)

        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { queue.post(.quit) }
        let waiting = Date()
        #expect(queue.take(waitingUpTo: 5) == [.quit])
        #expect(Date().timeIntervalSince(waiting) < 2)
    }

    /// The loop between writes calls `take()` hundreds of times a second: it must not sleep.
    @Test func takingWithoutWaitingIsInstant() {
        let queue = CommandQueue()
        let started = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<100_000 { _ = queue.take() }
        #expect(DispatchTime.now().uptimeNanoseconds - started < 1_000_000_000)
    }
}
