import Testing

@testable import Playback

/// The engine's rules as a table: commands in, actions out, no device.
@Suite struct PlaybackEngineTests {
    /// 10 s into a 60 s episode at 1 kHz (so frames read as milliseconds).
    static let timeline = PlaybackEngine.Timeline(position: 10_000, seekableFrames: 60_000, sampleRate: 1_000)

    @Test func spaceTogglesBetweenPlayingAndPaused() {
        var engine = PlaybackEngine()
        #expect(engine.handle(.togglePause, at: Self.timeline) == [.pauseOutput, .report(.paused(at: 10_000))])
        #expect(engine.isPaused)
        #expect(engine.handle(.togglePause, at: Self.timeline) == [.resumeOutput, .report(.resumed(at: 10_000))])
        #expect(!engine.isPaused)
    }

    @Test func pausingWhenPausedOrResumingWhenPlayingDoesNothing() {
        var engine = PlaybackEngine()
        #expect(engine.handle(.resume, at: Self.timeline).isEmpty)
        _ = engine.handle(.pause, at: Self.timeline)
        #expect(engine.handle(.pause, at: Self.timeline).isEmpty)
    }

    @Test(arguments: [
        (PlayerCommand.seek(by: -15), 0),
        (.seek(by: -5), 5_000),
        (.seek(by: 30), 40_000),
        (.seek(by: 3_600), 60_000),
        (.setPosition(42.5), 42_500),
        (.setPosition(-1), 0),
    ])
    func seeksStayWithinTheEpisode(command: PlayerCommand, target: Int) {
        var engine = PlaybackEngine()
        #expect(
            engine.handle(command, at: Self.timeline) == [
                .seek(toFrame: target), .report(.seeked(from: 10_000, to: target)),
            ])
    }

    @Test func aLiveStreamWithNoLengthSeeksForwardFreely() {
        var engine = PlaybackEngine()
        let live = PlaybackEngine.Timeline(position: 1_000, seekableFrames: nil, sampleRate: 1_000)
        #expect(engine.handle(.seek(by: 30), at: live).first == .seek(toFrame: 31_000))
    }

    @Test func volumeMovesInStepsAndStaysWithinZeroToAHundred() {
        var engine = PlaybackEngine(volume: 95)
        #expect(engine.handle(.changeVolume(by: 5), at: Self.timeline) == [.report(.volumeChanged(100))])
        #expect(engine.handle(.changeVolume(by: 5), at: Self.timeline).isEmpty)
        #expect(engine.volume == 100)
        var quiet = PlaybackEngine(volume: 3)
        _ = quiet.handle(.changeVolume(by: -5), at: Self.timeline)
        #expect(quiet.volume == 0)
    }

    @Test func previousRestartsTheEpisodeAfterItsFirstSecondsAndGoesBackBefore() {
        var engine = PlaybackEngine()
        #expect(
            engine.handle(.previous, at: Self.timeline) == [.seek(toFrame: 0), .report(.seeked(from: 10_000, to: 0))])
        #expect(engine.stopReason == nil)
        let early = PlaybackEngine.Timeline(position: 2_000, seekableFrames: 60_000, sampleRate: 1_000)
        #expect(engine.handle(.previous, at: early).isEmpty)
        #expect(engine.stopReason == .previous)
    }

    @Test(arguments: [
        ([PlayerCommand.next], StopReason.next),
        ([.next, .quit], .quit),
        ([.quit, .next], .quit),
        ([.markPlayed, .next], .markedPlayed),
        ([.quit, .signal(15)], .signal(15)),
        ([.signal(15), .quit, .next], .signal(15)),
    ])
    func aStopCanBeStrengthenedButNotWeakened(commands: [PlayerCommand], reason: StopReason) {
        var engine = PlaybackEngine()
        for command in commands { _ = engine.handle(command, at: Self.timeline) }
        engine.finish(.endOfEpisode)
        #expect(engine.stopReason == reason)
    }

    @Test func theEndDoesNotOverrideAStopAskedFor() {
        var engine = PlaybackEngine()
        engine.finish(.limitReached)
        engine.finish(.endOfEpisode)
        #expect(engine.stopReason == .limitReached)
    }
}
