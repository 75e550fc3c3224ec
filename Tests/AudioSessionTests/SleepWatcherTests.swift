import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AudioSession

/// logind's PrepareForSleep, sent on a private bus standing in for the system bus.
@Suite(.requires(MessageBus.unavailableReason == nil, "needs dbus-daemon and dbus-send"))
struct SleepWatcherTests {
    final class Seen: Sendable {
        let values = Mutex<[Bool]>([])
        var all: [Bool] { values.withLock { $0 } }
    }

    /// A started watcher on `bus`, and what it has seen.
    static func watch(_ bus: MessageBus) throws -> (SleepWatcher, Seen) {
        let seen = Seen()
        let watcher = try #require(
            SleepWatcher(address: bus.address) { sleeping in seen.values.withLock { $0.append(sleeping) } })
        watcher.start()
        return (watcher, seen)
    }

    @Test func reportsTheSystemGoingToSleepAndWakingUp() throws {
        let bus = try MessageBus()
        let (watcher, seen) = try Self.watch(bus)
        try bus.prepareForSleep(true)
        try bus.prepareForSleep(false)
        #expect(waitUntil(timeout: 5) { seen.all == [true, false] })
        withExtendedLifetime(watcher) {}
    }

    @Test func otherSignalsAreNotSleep() throws {
        let bus = try MessageBus()
        let (watcher, seen) = try Self.watch(bus)
        try bus.emit(
            path: "/org/freedesktop/login1", member: "org.freedesktop.login1.Manager.PrepareForShutdown",
            ["boolean:true"])
        try bus.prepareForSleep(true)
        #expect(waitUntil(timeout: 5) { seen.all == [true] })
        withExtendedLifetime(watcher) {}
    }

    @Test func withNoBusTheWatcherIsOff() {
        #expect(SleepWatcher(address: "unix:path=/nonexistent/podcli-bus") { _ in } == nil)
    }
}
