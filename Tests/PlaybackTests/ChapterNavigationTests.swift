import Testing

@testable import Playback

/// Next and previous chapter, and skipped chapters, as the engine decides them: a 60 s episode at
/// 1 kHz (frames read as milliseconds) with chapters at 0, 10, 20 (not a stop), 30 and 45 s.
@Suite struct ChapterNavigationTests {
    static func engine(skipping skipped: Set<Double> = []) -> PlaybackEngine {
        var engine = PlaybackEngine()
        let starts: [Double] = [0, 10, 20, 30, 45]
        engine.chapters = ChapterMarks(
            starts.indices.map { index in
                ChapterMarks.Mark(
                    start: starts[index], end: index + 1 < starts.count ? starts[index + 1] : 60,
                    isStop: starts[index] != 20, isSkipped: skipped.contains(starts[index]))
            })
        return engine
    }

    static func at(_ seconds: Double) -> PlaybackEngine.Timeline {
        PlaybackEngine.Timeline(position: Int(seconds * 1000), seekableFrames: 60_000, sampleRate: 1_000)
    }

    static func seek(_ from: Double, _ to: Double) -> [PlaybackEngine.Action] {
        [.seek(toFrame: Int(to * 1000)), .report(.seeked(from: Int(from * 1000), to: Int(to * 1000)))]
    }

    @Test func nextChapterGoesToTheNextStopsStart() {
        var engine = Self.engine()
        #expect(engine.handle(.nextChapter, at: Self.at(3)) == Self.seek(3, 10))
        // 20 s is no stop: from 12 s the next is 30 s.
        #expect(engine.handle(.nextChapter, at: Self.at(12)) == Self.seek(12, 30))
        // At a chapter's very start, the next one.
        #expect(engine.handle(.nextChapter, at: Self.at(10)) == Self.seek(10, 30))
    }

    @Test func nextChapterInTheLastDoesNothing() {
        var engine = Self.engine()
        #expect(engine.handle(.nextChapter, at: Self.at(50)).isEmpty)
        #expect(engine.stopReason == nil)
    }

    @Test func previousChapterRestartsTheChapterAfterItsFirstThreeSeconds() {
        var engine = Self.engine()
        #expect(engine.handle(.previousChapter, at: Self.at(33.5)) == Self.seek(33.5, 30))
        // Within the first 3 s: the chapter before (20 s is no stop, so 10 s).
        #expect(engine.handle(.previousChapter, at: Self.at(32.5)) == Self.seek(32.5, 10))
        #expect(engine.handle(.previousChapter, at: Self.at(30)) == Self.seek(30, 10))
        // In the first chapter's first 3 s: its start.
        #expect(engine.handle(.previousChapter, at: Self.at(1)) == Self.seek(1, 0))
    }

    @Test func withoutChaptersNextDoesNothingAndPreviousGoesToTheStart() {
        var engine = PlaybackEngine()
        #expect(engine.handle(.nextChapter, at: Self.at(12)).isEmpty)
        #expect(engine.handle(.previousChapter, at: Self.at(12)) == Self.seek(12, 0))
    }

    @Test func navigationPassesSkippedChapters() {
        var engine = Self.engine(skipping: [10, 30])
        // Next from 3 s is 10 s, skipped to its end: 20 s (no stop, but it plays).
        #expect(engine.handle(.nextChapter, at: Self.at(3)) == Self.seek(3, 20))
        // Previous within 45 s's first 3 s: 30 s and 10 s are skipped, so the first chapter.
        #expect(engine.handle(.previousChapter, at: Self.at(46)) == Self.seek(46, 0))
    }

    @Test func nextChapterIntoSkippedChaptersToTheEndEndsTheEpisode() {
        var engine = Self.engine(skipping: [45])
        #expect(engine.handle(.nextChapter, at: Self.at(33)) == Self.seek(33, 60))
        engine.chapters = ChapterMarks([.init(start: 0, end: nil), .init(start: 45, end: nil, isSkipped: true)])
        #expect(engine.handle(.nextChapter, at: Self.at(33)).isEmpty)
        #expect(engine.stopReason == .endOfEpisode)
    }

    @Test func decodingInASkippedChapterGoesOnPastItAndAllThatFollowIt() {
        let engine = Self.engine(skipping: [10, 20])
        // Heard at 9.8 s, decoding reaches 10 s: on from 30 s.
        #expect(engine.decoding(from: 10_000, sampleRate: 1_000, at: Self.at(9.8)) == .skip(Self.seek(9.8, 30)))
        // `--from 15` lands inside one.
        #expect(engine.decoding(from: 15_000, sampleRate: 1_000, at: Self.at(15)) == .skip(Self.seek(15, 30)))
        #expect(engine.decoding(from: 30_000, sampleRate: 1_000, at: Self.at(29.8)) == .decode(atMost: nil))
    }

    @Test func decodingStopsAtTheStartOfTheNextSkippedChapter() {
        let engine = Self.engine(skipping: [30])
        #expect(engine.decoding(from: 28_000, sampleRate: 1_000, at: Self.at(28)) == .decode(atMost: 2_000))
        #expect(engine.decoding(from: 29_999, sampleRate: 1_000, at: Self.at(29.8)) == .decode(atMost: 1))
        #expect(Self.engine().decoding(from: 0, sampleRate: 1_000, at: Self.at(0)) == .decode(atMost: nil))
    }

    /// Past skipped chapters to the end is the end: of the file, or at once when no length is known.
    @Test func decodingIntoSkippedChaptersThatReachTheEndHasNothingMoreToPlay() {
        var engine = Self.engine(skipping: [30, 45])
        #expect(engine.decoding(from: 30_000, sampleRate: 1_000, at: Self.at(29.8)) == .skip(Self.seek(29.8, 60)))
        engine.chapters = ChapterMarks([.init(start: 0, end: 30), .init(start: 30, end: nil, isSkipped: true)])
        #expect(engine.decoding(from: 30_000, sampleRate: 1_000, at: Self.at(29.8)) == .end)
    }

    /// A stream whose skipped chapter ends past what has arrived waits for it: seeking only as
    /// far as has arrived would play the chapter.
    @Test func aStreamWaitsForTheEndOfASkippedChapterToArrive() {
        let engine = Self.engine(skipping: [0])
        var arriving = PlaybackEngine.Timeline(position: 0, seekableFrames: 6_000, sampleRate: 1_000, isArriving: true)
        #expect(engine.decoding(from: 0, sampleRate: 1_000, at: arriving) == .wait)
        arriving.seekableFrames = 12_000
        #expect(engine.decoding(from: 0, sampleRate: 1_000, at: arriving) == .skip(Self.seek(0, 10)))
    }

    @Test func aChapterEndingBeforeTheNextStartsSkipsOnlyToItsEnd() {
        var engine = PlaybackEngine()
        engine.chapters = ChapterMarks([
            .init(start: 0, end: 10), .init(start: 10, end: 12, isSkipped: true), .init(start: 20, end: 30),
        ])
        #expect(engine.decoding(from: 10_000, sampleRate: 1_000, at: Self.at(10)) == .skip(Self.seek(10, 12)))
        #expect(engine.decoding(from: 12_000, sampleRate: 1_000, at: Self.at(12)) == .decode(atMost: nil))
    }
}
