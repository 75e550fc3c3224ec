import Testing

@testable import Terminal

@Suite struct NowPlayingLineTests {
    static let episode = NowPlaying(
        podcast: "The Daily Byte", title: "Episode 42: Rust, Swift and the Borrow Checker", elapsed: 754,
        duration: 2700, volume: 80, state: "playing")

    static func render(_ info: NowPlaying = episode, columns: Int) -> String {
        let line = NowPlayingLine.render(info, columns: columns)
        #expect(DisplayWidth.of(line) <= columns, "\(columns) columns: \(line)")
        return line
    }

    @Test func showsEverythingWhenWide() {
        #expect(
            Self.render(columns: 200)
                == "▶ The Daily Byte — Episode 42: Rust, Swift and the Borrow Checker  12:34 / 45:00 "
                + "[========>---------------------] vol 80%")
    }

    @Test func cutsThePodcastAndTitleAndShrinksTheBarAt80() {
        #expect(
            Self.render(columns: 80)
                == "▶ The Dai… — Episode 42: Rust, Swift and the Bor…  12:34 / 45:00 [=>---] vol 80%")
    }

    @Test func dropsPodcastThenBarThenVolumeBeforeTheTitle() {
        #expect(Self.render(columns: 50) == "▶ Episode 42: Rust…  12:34 / 45:00 [=>---] vol 80%")
        #expect(Self.render(columns: 40) == "▶ Episode 42: Ru…  12:34 / 45:00 vol 80%")
        #expect(Self.render(columns: 30) == "▶ Episode 42:…  12:34 / 45:00")
    }

    /// A rate other than 1 is shown beside the state, and kept when the line is narrow; at 1 it
    /// is not shown at all.
    @Test func showsTheRateWhenItIsNot1() {
        var fast = Self.episode
        fast.rate = 1.5
        #expect(
            Self.render(fast, columns: 80)
                == "▶ 1.5× The Dai… — Episode 42: Rust, Swift and th…  12:34 / 45:00 [=>---] vol 80%")
        #expect(Self.render(fast, columns: 20) == "▶ 1.5× 12:34 / 45:00")
        fast.rate = 0.75
        fast.state = "paused"
        #expect(Self.render(fast, columns: 21) == "⏸ 0.75× 12:34 / 45:00")
        #expect(!Self.render(columns: 200).contains("×"))
        #expect([1, 2, 1.25, 0.8, 1.006].map(NowPlayingLine.rate) == ["1×", "2×", "1.25×", "0.8×", "1.01×"])
    }

    /// The sleep timer comes last, and is kept after the title, before the volume, the bar and
    /// the podcast's name.
    @Test func showsWhatIsLeftOfTheSleepTimer() {
        var sleepy = Self.episode
        sleepy.sleep = .seconds(899.2)
        #expect(
            Self.render(sleepy, columns: 200)
                == "▶ The Daily Byte — Episode 42: Rust, Swift and the Borrow Checker  12:34 / 45:00 "
                + "[========>---------------------] vol 80% sleep 15:00")
        #expect(Self.render(sleepy, columns: 50) == "▶ Episode 42:…  12:34 / 45:00 vol 80% sleep 15:00")
        #expect(Self.render(sleepy, columns: 42) == "▶ Episode 42:…  12:34 / 45:00 sleep 15:00")
        #expect(Self.render(sleepy, columns: 30) == "▶ Episode 42:…  12:34 / 45:00")
        sleepy.sleep = .endOfEpisode
        #expect(Self.render(sleepy, columns: 45) == "▶ Episode 42: Ru…  12:34 / 45:00 sleep at end")
    }

    /// The author follows the podcast's name, and is the first thing dropped when the line is
    /// narrow; it stands in for a missing podcast name, and is not repeated when it is that name.
    @Test func showsTheAuthorAfterThePodcastAndDropsItFirst() {
        var info = Self.episode
        info.author = "Jane Doe"
        info.rate = 2
        #expect(
            Self.render(info, columns: 200)
                == "▶ 2× The Daily Byte (Jane Doe) — Episode 42: Rust, Swift and the Borrow Checker  12:34 / 45:00 "
                + "[========>---------------------] vol 80%")
        #expect(
            Self.render(info, columns: 90)
                == "▶ 2× The Dai… (Jane Doe) — Episode 42: Rust, Swift and the…  12:34 / 45:00 [=>---] vol 80%")
        #expect(
            Self.render(info, columns: 70) == "▶ 2× The Dai… (Jane Doe) — Episode 42:…  12:34 / 45:00 [=>---] vol 80%")
        // Narrower, the author goes first; the podcast's name, then the bar, then the volume after it.
        #expect(
            Self.render(info, columns: 69) == "▶ 2× The Dai… — Episode 42: Rust, Swi…  12:34 / 45:00 [=>---] vol 80%")
        #expect(Self.render(info, columns: 23) == "▶ 2× 12:34 / 45:00")
        info.podcast = nil
        #expect(Self.render(info, columns: 60) == "▶ 2× Jane Doe — Episode 42:…  12:34 / 45:00 [=>---] vol 80%")
        info.podcast = "Jane Doe"
        #expect(Self.render(info, columns: 60) == "▶ 2× Jane Doe — Episode 42:…  12:34 / 45:00 [=>---] vol 80%")
    }

    @Test func keepsStateAndTimesWhenNarrow() {
        #expect(Self.render(columns: 20) == "▶ 12:34 / 45:00")
        #expect(Self.render(columns: 10) == "▶ 12:34")
        #expect(Self.render(columns: 1) == "▶")
        #expect(Self.render(columns: 0) == "")
    }

    @Test func spellsOutOtherStatesAndCutsThemLast() {
        var info = Self.episode
        info.state = "interrupted (suspend)"
        #expect(Self.render(info, columns: 40) == "interrupted (suspend) 12:34 / 45:00")
        #expect(Self.render(info, columns: 20) == "interrupted (… 12:34")
        #expect(Self.render(info, columns: 10) == "int… 12:34")
    }

    @Test func pausedLiveStreamHasNoDurationAndNoBar() {
        var info = Self.episode
        info.state = "paused"
        info.duration = nil
        #expect(
            Self.render(info, columns: 200)
                == "⏸ The Daily Byte — Episode 42: Rust, Swift and the Borrow Checker  12:34 vol 80%")
        #expect(Self.render(info, columns: 20) == "⏸ Episode 42…  12:34")
    }

    @Test func neverExceedsTheWidthWhateverTheText() {
        let texts = ["", "x", "漢字のポッドキャスト番組の長いタイトル", "👩‍👩‍👧🎧 e\u{301}", "Plain title"]
        for title in texts {
            for podcast in [nil, "", "ラジオ", "A podcast"] {
                for state in ["playing", "paused", "interrupted (suspend)", ""] {
                    let info = NowPlaying(
                        podcast: podcast, title: title, elapsed: 4000, duration: 7322, volume: 100, state: state)
                    for columns in 0...120 { _ = Self.render(info, columns: columns) }
                }
            }
        }
    }

    @Test func turnsControlCharactersIntoSpaces() {
        let info = NowPlaying(
            title: "Line\nbreak \u{1B}[31mred", elapsed: 0, duration: 60, volume: 50, state: "paused")
        #expect(Self.render(info, columns: 80).hasPrefix("⏸ Line break  [31mred  0:00 / 1:00 [>---"))
    }

    @Test func barAndVolumeAreClamped() {
        let info = NowPlaying(title: "T", elapsed: 90, duration: 60, volume: 140, state: "playing")
        #expect(Self.render(info, columns: 200) == "▶ T  1:30 / 1:00 [==============================] vol 100%")
        let before = NowPlaying(title: "T", elapsed: -5, duration: 60, volume: -1, state: "playing")
        #expect(Self.render(before, columns: 200) == "▶ T  0:00 / 1:00 [>-----------------------------] vol 0%")
    }

    @Test func clockIsMinutesUnderAnHourAndHoursAbove() {
        #expect(NowPlayingLine.clock(0) == "0:00")
        #expect(NowPlayingLine.clock(5.99) == "0:05")
        #expect(NowPlayingLine.clock(59.999) == "0:59")
        #expect(NowPlayingLine.clock(754) == "12:34")
        #expect(NowPlayingLine.clock(3599.9) == "59:59")
        #expect(NowPlayingLine.clock(3600) == "1:00:00")
        #expect(NowPlayingLine.clock(7322) == "2:02:02")
        #expect(NowPlayingLine.clock(36_000) == "10:00:00")
    }

    @Test func clockClampsNegativeAndNonFiniteToZero() {
        #expect(NowPlayingLine.clock(-3) == "0:00")
        #expect(NowPlayingLine.clock(.nan) == "0:00")
        #expect(NowPlayingLine.clock(.infinity) == "0:00")
    }
}
