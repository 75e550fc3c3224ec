import Testing

@testable import Playback

/// The engine's rules as a table: commands in, actions out, no device.
@Suite struct PlaybackEngineTests {
    /// 10 s into a 60 s episode at 1 kHz (so frames read as milliseconds).
    static let timeline = PlaybackEngine.Timeline(position: 10_000, seekableFrames: 60_000, sampleRate: 1_000)

    @Test func spaceTogglesBetweenPlayingAndPaused() {
        var engine = PlaybackEngine()
        #expect(
            engine.handle(.togglePause, at: Self.timeline) == [
                .pauseOutput, .report(.stateChanged(.paused, at: 10_000)),
            ])
        #expect(engine.state == .paused)
        #expect(
            engine.handle(.togglePause, at: Self.timeline) == [
                .resumeOutput, .report(.stateChanged(.playing, at: 10_000)),
            ])
        #expect(engine.state == .playing)
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

    /// A bookmark changes nothing in the player: it reports the frame heard, with its note and
    /// ticket, playing or paused.
    @Test func aBookmarkReportsTheFrameHeardAndChangesNothing() {
        var engine = PlaybackEngine()
        #expect(
            engine.handle(.bookmark(note: "the quote", ticket: 3), at: Self.timeline) == [
                .report(.bookmarked(note: "the quote", ticket: 3, at: 10_000))
            ])
        _ = engine.handle(.pause, at: Self.timeline)
        #expect(
            engine.handle(.bookmark(note: nil, ticket: nil), at: Self.timeline) == [
                .report(.bookmarked(note: nil, ticket: nil, at: 10_000))
            ])
        #expect(engine.state == .paused && engine.stopReason == nil)
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

    // MARK: - Interruptions and route changes: the policy as a table

    /// One step of a sequence: what happens, the state after it, and whether the output is told
    /// to pause or resume (or is let go).
    struct Step: CustomTestStringConvertible, Sendable {
        let command: PlayerCommand
        let state: PlayerState
        let output: PlaybackEngine.Action?

        init(_ command: PlayerCommand, _ state: PlayerState, _ output: PlaybackEngine.Action? = nil) {
            self.command = command
            self.state = state
            self.output = output
        }

        var testDescription: String { "\(command) → \(state)" }
    }

    static let unplugged = PlayerCommand.routeChanged(.oldDeviceUnavailable(reason: "unplugged"))

    static let sequences: [(String, [Step])] = [
        (
            "an interruption pauses and its end resumes",
            [
                Step(.interruptionBegan(.suspend), .interrupted(.suspend), .pauseOutput),
                Step(.interruptionEnded(.suspend, shouldResume: true), .playing, .resumeOutput),
            ]
        ),
        (
            "an end that says not to resume leaves it paused",
            [
                Step(.interruptionBegan(.systemSleep), .interrupted(.systemSleep), .pauseOutput),
                Step(.interruptionEnded(.systemSleep, shouldResume: false), .paused),
                Step(.resume, .playing, .resumeOutput),
            ]
        ),
        (
            "a user pause during an interruption is kept when it ends",
            [
                Step(.interruptionBegan(.suspend), .interrupted(.suspend), .pauseOutput),
                Step(.pause, .interrupted(.suspend)),
                Step(.interruptionEnded(.suspend, shouldResume: true), .paused),
            ]
        ),
        (
            "paused before an interruption stays paused after it",
            [
                Step(.pause, .paused, .pauseOutput),
                Step(.interruptionBegan(.deviceBusy), .interrupted(.deviceBusy)),
                Step(.interruptionEnded(.deviceBusy, shouldResume: true), .paused),
            ]
        ),
        (
            "asking to play during an interruption plays when it ends",
            [
                Step(.pause, .paused, .pauseOutput),
                Step(.interruptionBegan(.systemSleep), .interrupted(.systemSleep)),
                Step(.resume, .interrupted(.systemSleep)),
                Step(.interruptionEnded(.systemSleep, shouldResume: true), .playing, .resumeOutput),
            ]
        ),
        (
            "overlapping interruptions resume only after the last one ends",
            [
                Step(.interruptionBegan(.systemSleep), .interrupted(.systemSleep), .pauseOutput),
                Step(.interruptionBegan(.deviceBusy), .interrupted(.deviceBusy)),
                Step(.interruptionEnded(.systemSleep, shouldResume: true), .interrupted(.deviceBusy)),
                Step(.interruptionEnded(.deviceBusy, shouldResume: true), .playing, .resumeOutput),
            ]
        ),
        (
            "an end of an interruption that never began changes nothing",
            [
                Step(.interruptionEnded(.suspend, shouldResume: true), .playing)
            ]
        ),
        (
            "losing the device pauses and nothing but the user resumes",
            [
                Step(unplugged, .deviceLost, .releaseOutput),
                Step(.routeChanged(.newDeviceAvailable), .deviceLost),
                Step(.interruptionBegan(.suspend), .deviceLost),
                Step(.interruptionEnded(.suspend, shouldResume: true), .deviceLost),
                Step(.resume, .playing),
            ]
        ),
        (
            "losing the device while paused, then resuming",
            [
                Step(.pause, .paused, .pauseOutput),
                Step(unplugged, .deviceLost, .releaseOutput),
                Step(.togglePause, .playing),
            ]
        ),
        (
            "losing the device during an interruption: its end does not resume",
            [
                Step(.interruptionBegan(.systemSleep), .interrupted(.systemSleep), .pauseOutput),
                Step(unplugged, .deviceLost, .releaseOutput),
                Step(.interruptionEnded(.systemSleep, shouldResume: true), .deviceLost),
                Step(.resume, .playing),
            ]
        ),
        (
            "a new device while playing changes nothing",
            [
                Step(.routeChanged(.newDeviceAvailable), .playing),
                Step(.routeChanged(.override), .playing),
            ]
        ),
    ]

    @Test(arguments: sequences)
    func thePolicyForWhatHappensAroundThePlayer(_ name: String, _ steps: [Step]) {
        var engine = PlaybackEngine()
        for step in steps {
            let actions = engine.handle(step.command, at: Self.timeline)
            #expect(engine.state == step.state, "\(name): after \(step.command)")
            let outputActions = actions.filter { action in
                if case .report = action { return false } else { return true }
            }
            #expect(outputActions == (step.output.map { [$0] } ?? []), "\(name): after \(step.command)")
        }
    }

    /// Ctrl-Z must stop the process whatever the state, once the output is paused.
    @Test(arguments: [[], [PlayerCommand.pause], [unplugged]])
    func aSuspendIsAlwaysAnnouncedAfterTheOutputPaused(before: [PlayerCommand]) {
        var engine = PlaybackEngine()
        for command in before { _ = engine.handle(command, at: Self.timeline) }
        let actions = engine.handle(.interruptionBegan(.suspend), at: Self.timeline)
        #expect(actions.last == .report(.suspending(at: 10_000)))
        if let pause = actions.firstIndex(of: .pauseOutput) { #expect(pause < actions.count - 1) }
    }

    @Test func everyChangeOfStateIsReportedWithItsReason() {
        var engine = PlaybackEngine()
        #expect(
            engine.handle(.interruptionBegan(.systemSleep), at: Self.timeline).last
                == .report(.stateChanged(.interrupted(.systemSleep), at: 10_000)))
        #expect(
            engine.handle(Self.unplugged, at: Self.timeline).last == .report(.stateChanged(.deviceLost, at: 10_000)))
        #expect(PlayerState.interrupted(.suspend).description == "interrupted (suspend)")
        #expect(PlayerState.deviceLost.description == "paused (device lost)")
    }
}

/// Speed and the sleep timer: state the engine owns, changed by commands.
@Suite struct PlaybackEngineListeningTests {
    static let timeline = PlaybackEngine.Timeline(
        position: 10_000, seekableFrames: 60_000, sampleRate: 1_000, listenedSeconds: 100)

    @Test func speedStaysWithinItsRangeOnItsSteps() {
        var engine = PlaybackEngine()
        #expect(engine.handle(.changeSpeed(by: 0.1), at: Self.timeline) == [.report(.speedChanged(1.1))])
        #expect(engine.handle(.setSpeed(2.98), at: Self.timeline) == [.report(.speedChanged(3))])
        #expect(engine.handle(.changeSpeed(by: 0.1), at: Self.timeline).isEmpty)
        #expect(engine.handle(.setSpeed(0.1), at: Self.timeline) == [.report(.speedChanged(0.5))])
        #expect(engine.speed == 0.5)
    }

    @Test func theSleepTimerCountsListeningFromWhenItIsSet() {
        var engine = PlaybackEngine()
        #expect(engine.handle(.setSleepTimer(.after(seconds: 60)), at: Self.timeline) == [.report(.sleepTimerChanged)])
        #expect(engine.sleepTimer(listened: 130) == .after(seconds: 30))
        _ = engine.handle(
            .extendSleepTimer(by: 300),
            at: PlaybackEngine.Timeline(
                position: 0, seekableFrames: nil, sampleRate: 1_000, listenedSeconds: 130))
        #expect(engine.sleepTimer(listened: 130) == .after(seconds: 330))
        _ = engine.handle(.setSleepTimer(nil), at: Self.timeline)
        #expect(engine.sleepTimer(listened: 130) == nil)
    }

    @Test func theSleepKeyCyclesThroughItsChoicesAndBackToOff() {
        var engine = PlaybackEngine()
        var seen: [SleepTimer?] = []
        for _ in SleepTimer.cycle {
            _ = engine.handle(.cycleSleepTimer, at: Self.timeline)
            seen.append(engine.sleepTimer(listened: Self.timeline.listenedSeconds))
        }
        #expect(seen == Array(SleepTimer.cycle.dropFirst()) + [nil])
    }

    @Test func theNextEpisodeKeepsTheSpeedVolumeAndWhatIsLeftOfTheSleepTimer() {
        var engine = PlaybackEngine(volume: 70, speed: 1.5, sleepTimer: .after(seconds: 600))
        #expect(engine.forNextEpisode(listened: 240).sleepTimer(listened: 0) == .after(seconds: 360))
        #expect(engine.forNextEpisode(listened: 240).speed == 1.5 && engine.forNextEpisode(listened: 0).volume == 70)
        _ = engine.handle(.setSleepTimer(.endOfEpisode), at: Self.timeline)
        #expect(engine.forNextEpisode(listened: 10).sleepTimer(listened: 0) == nil)
    }
}
