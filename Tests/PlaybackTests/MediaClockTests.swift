import Testing

@testable import Playback

/// The media clock against writes a player would make: positions are media frames, whatever the
/// filters made of them on the way to the device.
struct MediaClockTests {
    /// At one media frame a device frame, the clock gives what counting written frames gave.
    @Test func atNormalSpeedThePositionIsWhatWasWrittenLessWhatTheDeviceHolds() {
        var clock = MediaClock(startingAt: 1_000)
        #expect(clock.position(deviceHolding: 0) == 1_000)
        clock.wrote(deviceFrames: 2_048, mediaFrames: 2_048, deviceHolding: 2_048)
        clock.wrote(deviceFrames: 1_000, mediaFrames: 1_000, deviceHolding: 2_500)
        #expect(clock.position(deviceHolding: 2_500) == 1_000 + 3_048 - 2_500)
        #expect(clock.position(deviceHolding: 0) == 4_048)
        #expect(clock.mediaFramesPlayed == 3_048 && clock.deviceFramesPlayed == 3_048)
    }

    /// A 2x filter gives out one device frame for two media frames: within and across segments
    /// of different ratios, the frame heard is the media frame the device frame reached.
    @Test func positionsAcrossSegmentsOfDifferentRatios() {
        var clock = MediaClock(startingAt: 0)
        clock.wrote(deviceFrames: 1_000, mediaFrames: 1_000, deviceHolding: 1_000)  // 1x: media 0..<1000
        clock.wrote(deviceFrames: 1_000, mediaFrames: 2_000, deviceHolding: 2_000)  // 2x: media 1000..<3000
        clock.wrote(deviceFrames: 500, mediaFrames: 250, deviceHolding: 2_500)  // 0.5x: media 3000..<3250
        // Device frames written: 2500; held 2500 → the first device frame: media 0.
        #expect(clock.position(deviceHolding: 2_500) == 0)
        #expect(clock.position(deviceHolding: 2_000) == 500)
        #expect(clock.position(deviceHolding: 1_500) == 1_000)
        #expect(clock.position(deviceHolding: 1_000) == 2_000)
        #expect(clock.position(deviceHolding: 500) == 3_000)
        #expect(clock.position(deviceHolding: 250) == 3_125)
        #expect(clock.position(deviceHolding: 0) == 3_250)
        #expect(clock.mediaFramesPlayed == 3_250)
        #expect(clock.deviceFramesPlayed == 2_500)
    }

    /// A pause that drops what the device held maps back to the media frame decoding must start
    /// again at; the dropped frames no longer count as played, in media or device frames.
    @Test func aDropMapsBackToTheMediaFrameToDecodeAgain() {
        var clock = MediaClock(startingAt: 10_000)
        clock.wrote(deviceFrames: 1_000, mediaFrames: 2_000, deviceHolding: 1_000)  // 2x: media 10000..<12000
        clock.wrote(deviceFrames: 1_000, mediaFrames: 1_000, deviceHolding: 1_600)  // 1x: media 12000..<13000
        #expect(clock.dropped(deviceFrames: 1_300) == 11_400)
        #expect(clock.mediaFramesPlayed == 1_400 && clock.deviceFramesPlayed == 700)
        #expect(clock.position(deviceHolding: 0) == 11_400)
        // Writing goes on from there, at 2x again.
        clock.wrote(deviceFrames: 100, mediaFrames: 200, deviceHolding: 400)
        #expect(clock.mediaFrameWritten == 11_600)
        #expect(clock.position(deviceHolding: 400) == 10_800)
    }

    /// A seek starts the media again elsewhere; what the device held does not count as played.
    @Test func aSeekRestartsTheMediaAndKeepsTheTotals() {
        var clock = MediaClock(startingAt: 0)
        clock.wrote(deviceFrames: 4_000, mediaFrames: 8_000, deviceHolding: 1_000)
        _ = clock.dropped(deviceFrames: 1_000)
        clock.restart(at: 50_000)
        #expect(clock.position(deviceHolding: 0) == 50_000)
        clock.wrote(deviceFrames: 500, mediaFrames: 1_000, deviceHolding: 500)
        #expect(clock.position(deviceHolding: 500) == 50_000)
        #expect(clock.position(deviceHolding: 250) == 50_500)
        #expect(clock.mediaFramesPlayed == 7_000 && clock.deviceFramesPlayed == 3_500)
    }

    /// A seek that leaves the device its buffer (heard first): the position is the target at
    /// once and while the old frames play, then moves on with the new ones; all of them count
    /// as played. A drop of all the device holds then goes back to the target.
    @Test func aSeekThatKeepsWhatTheDeviceHoldsIsAtItsTargetAtOnce() {
        var clock = MediaClock(startingAt: 0)
        clock.wrote(deviceFrames: 4_000, mediaFrames: 4_000, deviceHolding: 1_000)
        clock.restart(at: 50_000)
        #expect(clock.position(deviceHolding: 1_000) == 50_000)
        clock.wrote(deviceFrames: 500, mediaFrames: 500, deviceHolding: 1_200)
        #expect(clock.position(deviceHolding: 1_200) == 50_000)
        #expect(clock.position(deviceHolding: 500) == 50_000)
        #expect(clock.position(deviceHolding: 200) == 50_300)
        #expect(clock.mediaFramesPlayed == 4_500 && clock.deviceFramesPlayed == 4_500)
        #expect(clock.dropped(deviceFrames: 1_200) == 50_000)
    }

    /// Hours of writes at changing ratios: the segments the device has played are forgotten, and
    /// a device that holds a great deal still leaves the memory bounded.
    @Test func trimmingKeepsTheMemoryBounded() {
        var clock = MediaClock(startingAt: 0)
        var most = 0
        for write in 0..<100_000 {
            let device = 1_000 + write % 7
            clock.wrote(deviceFrames: device, mediaFrames: device * (1 + write % 2), deviceHolding: 3_000)
            most = max(most, clock.segmentCount)
        }
        #expect(most <= 4)
        #expect(clock.mediaFramesPlayed == (0..<100_000).reduce(0) { $0 + (1_000 + $1 % 7) * (1 + $1 % 2) })
        var holdingAll = MediaClock(startingAt: 0)
        for write in 0..<10_000 {
            holdingAll.wrote(deviceFrames: 10, mediaFrames: 10 * (1 + write % 2), deviceHolding: 10 * (write + 1))
        }
        #expect(holdingAll.segmentCount <= MediaClock.maxSegments)
        #expect(holdingAll.position(deviceHolding: 0) == 150_000)
    }

    /// Writes at one ratio are one segment, however many.
    @Test func writesAtOneRatioAreOneSegment() {
        var clock = MediaClock(startingAt: 0)
        for _ in 0..<1_000 { clock.wrote(deviceFrames: 2_048, mediaFrames: 2_048, deviceHolding: 1_000_000) }
        #expect(clock.segmentCount == 1)
        #expect(clock.position(deviceHolding: 1_000_000) == 2_048_000 - 1_000_000)
    }
}
