import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AudioSession

/// The watcher on a real ALSA control device. This machine has no sound card, so no jack: a
/// private PulseAudio server's control device (ALSA's pulse plugin) has a switch that changes the
/// same way, "Master Playback Switch" (the sink's mute), and stands in for one.
@Suite(
    .requires(
        PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled,
        "needs pulseaudio and libasound2-plugins"))
struct JackWatcherTests {
    final class Seen: Sendable {
        let changes = Mutex<[Bool]>([])
    }

    @Test func aSwitchTurningOffAndOnIsReportedOnceEach() throws {
        let server = try PulseAudioServer()
        let seen = Seen()
        let watcher = JackWatcher(
            device: "jacks", configuration: "ctl.jacks { type pulse\nserver \"\(server.serverAddress)\" }",
            watching: { $0 == "Master Playback Switch" },
            onChange: { _, plugged in seen.changes.withLock { $0.append(plugged) } })
        try #require(watcher != nil)
        watcher?.start()
        _ = try server.pactl(["set-sink-mute", server.sinkName, "1"])
        #expect(waitUntil(timeout: 5) { seen.changes.withLock { $0 } == [false] })
        // A volume change is an event on other elements: not reported.
        _ = try server.pactl(["set-sink-volume", server.sinkName, "50%"])
        _ = try server.pactl(["set-sink-mute", server.sinkName, "0"])
        #expect(waitUntil(timeout: 5) { seen.changes.withLock { $0 } == [false, true] })
    }

    @Test func aDeviceWithoutJacksOrNoDeviceIsNoWatcher() throws {
        let server = try PulseAudioServer()
        #expect(
            JackWatcher(
                device: "jacks", configuration: "ctl.jacks { type pulse\nserver \"\(server.serverAddress)\" }",
                onChange: { _, _ in }) == nil)
        #expect(JackWatcher(device: "hw:99", onChange: { _, _ in }) == nil)
    }

    @Test(arguments: [
        ("Headphone Jack", true), ("Front Headphone Jack", true), ("Headphone Mic Jack", true),
        ("Mic Jack", false), ("Line Out Jack", false), ("Headphone Playback Switch", false),
    ])
    func headphoneJacksAreKnownByName(name: String, isJack: Bool) {
        #expect(JackWatcher.isHeadphoneJack(name) == isJack)
    }
}
