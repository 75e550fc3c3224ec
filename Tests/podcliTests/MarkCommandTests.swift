import Foundation
import TestSupport
import Testing

/// `podcli mark played|unplayed|new|old` end to end: the built podcli, two feeds subscribed over
/// the loopback server, a real SQLite file.
@Suite struct MarkCommandTests {
    /// "The Show" (Episodes 1 to 4, published on 1 to 4 January 2025) and "Other" (its Episodes 1
    /// and 2); subscribing made each feed's newest new.
    struct Library {
        let w: FeedCommandTests.World

        init() throws {
            w = try FeedCommandTests.World()
            for (title, show, count) in [("The Show", "show", 4), ("Other", "other", 2)] {
                let items = (1...count).reversed().map { w.item($0, in: show) }
                let url = try w.serve("\(show).xml", FeedCommandTests.rss(title: title, items: items))
                let fetch = try w.t.run(["fetch", url])
                guard fetch.status == 0 else { throw TestSupportError("subscribing failed: \(fetch)") }
            }
        }

        /// Runs podcli in UTC (`zone`: a POSIX TZ), where the episodes' noons fall on their days.
        func run(_ arguments: [String], zone: String = "UTC0") throws -> ProcessResult {
            try w.t.run(arguments, environment: ["TZ": zone])
        }

        /// "Feed: Title" of the episodes `list` shows with `flags`, newest first.
        func titles(_ flags: [String] = []) throws -> [String] {
            try w.episodes(flags + ["--all"]).map {
                "\($0["feed"] as? String ?? "-"): \($0["title"] as? String ?? "-")"
            }
        }

        /// The episode number of `title` in `feed`.
        func id(_ feed: String, _ title: String) throws -> String {
            let episode = try w.episodes(["--all"]).first {
                $0["feed"] as? String == feed && $0["title"] as? String == title
            }
            return "\(try #require(episode?["id"] as? Int))"
        }
    }

    @Test func markingAFeedsEpisodesPublishedBeforeADayMarksThemAllAndSaysHowMany() throws {
        let l = try Library()
        let mark = try l.run(["mark", "played", "--feed", "the show", "--before", "2025-01-03"])
        #expect(mark.status == 0, "\(mark)")
        #expect(mark.stdout == "Marked 2 episodes played\n")
        #expect(mark.stderr.isEmpty)
        #expect(try l.titles(["--played"]) == ["The Show: Episode 2", "The Show: Episode 1"])

        // Again, with one more day: the two already played are counted apart.
        let again = try l.run(["mark", "played", "--feed", "the show", "--before", "2025-01-04"])
        #expect(again.stdout == "Marked 1 episode played (2 already were)\n", "\(again)")

        // The date alone reaches every feed.
        let all = try l.run(["mark", "played", "--before", "2025-01-03"])
        #expect(all.stdout == "Marked 2 episodes played (2 already were)\n", "\(all)")
        #expect(try l.titles(["--played"]).count == 5)
    }

    @Test func theDayStartsAtLocalMidnight() throws {
        let l = try Library()
        // 13 hours ahead of UTC, 3 January starts at 11:00 UTC on the 2nd: before Episode 2's noon.
        let mark = try l.run(["mark", "played", "--feed", "The Show", "--before", "2025-01-03"], zone: "NZDT-13")
        #expect(mark.stdout == "Marked 1 episode played\n", "\(mark)")
        #expect(try l.titles(["--played"]) == ["The Show: Episode 1"])
    }

    @Test func markingPlayedIsWhatPlayingsMarkLeavesAndUnplayedUndoesIt() throws {
        let l = try Library()
        let newest = try l.id("The Show", "Episode 4")
        #expect(try l.w.t.show(newest)["new"] as? Bool == true)
        let mark = try l.run(["mark", "played", newest])
        #expect(mark.stdout == "Marked 1 episode played\n", "\(mark)")
        let shown = try l.w.t.show(newest)
        #expect(shown["played"] as? Bool == true)
        #expect(shown["position"] as? Double == 0)
        #expect(shown["new"] as? Bool == false)
        #expect(shown["status"] as? String == "played")

        let unplayed = try l.run(["mark", "unplayed", newest, try l.id("Other", "Episode 1")])
        #expect(unplayed.stdout == "Marked 1 episode unplayed (1 already was)\n", "\(unplayed)")
        #expect(try l.w.t.show(newest)["played"] as? Bool == false)
        #expect(try l.titles(["--played"]).isEmpty)
    }

    @Test func markingNewAndOldSetsAndClearsWhatListNewShows() throws {
        let l = try Library()
        #expect(try l.titles(["--new"]) == ["The Show: Episode 4", "Other: Episode 2"])
        let new = try l.run(["mark", "new", "--feed", "Other"])
        #expect(new.stdout == "Marked 1 episode new (1 already was)\n", "\(new)")
        #expect(try l.titles(["--new"]) == ["The Show: Episode 4", "Other: Episode 2", "Other: Episode 1"])

        let old = try l.run(["mark", "old", try l.id("The Show", "Episode 4"), try l.id("Other", "Episode 1")])
        #expect(old.stdout == "Marked 2 episodes old\n", "\(old)")
        #expect(try l.titles(["--new"]) == ["Other: Episode 2"])
    }

    @Test func episodesAreNamedAsEverywhereElseAndNarrowedByFeedAndDate() throws {
        let l = try Library()
        let uuid = try #require(
            try l.w.episodes(["--all"]).first { $0["title"] as? String == "Episode 1" }?["uuid"] as? String)
        let byUUID = try l.run(["mark", "played", String(uuid.prefix(30))])
        #expect(byUUID.stdout == "Marked 1 episode played\n", "\(byUUID)")

        // Two named, one of them in the feed and before the day.
        let ids = [
            try l.id("The Show", "Episode 2"), try l.id("The Show", "Episode 3"), try l.id("Other", "Episode 2"),
        ]
        let narrowed = try l.run(["mark", "played"] + ids + ["--feed", "The Show", "--before", "2025-01-03"])
        #expect(narrowed.stdout == "Marked 1 episode played\n", "\(narrowed)")
        #expect(try l.titles(["--played"]).contains("The Show: Episode 2"))
        #expect(try l.titles(["--played"]).count == 2)
    }

    @Test func nothingMatchingSaysSoAndExits66() throws {
        let l = try Library()
        let none = try l.run(["mark", "played", "--feed", "The Show", "--before", "2024-12-31"])
        #expect(none.status == 66, "\(none)")
        #expect(none.stdout.isEmpty)
        #expect(none.stderr == "podcli: no episode of 'The Show' published before 2024-12-31: nothing was marked\n")

        let named = try l.run(["mark", "old", try l.id("Other", "Episode 1"), "--feed", "The Show"])
        #expect(named.status == 66, "\(named)")
        #expect(named.stderr.hasPrefix("podcli: no episode among #"), "\(named)")
        #expect(named.stderr.hasSuffix(" of 'The Show': nothing was marked\n"), "\(named)")
        #expect(try l.titles(["--played"]).isEmpty)
    }

    @Test func anUnknownEpisodeOrFeedMarksNothingAndExits66() throws {
        let l = try Library()
        let unknown = try l.run(["mark", "played", try l.id("The Show", "Episode 1"), "999"])
        #expect(unknown.status == 66, "\(unknown)")
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr == "podcli: no episode '999': give its number or a UUID prefix (see 'podcli list')\n")
        #expect(try l.titles(["--played"]).isEmpty, "nothing is marked when one ID names no episode")

        let feed = try l.run(["mark", "played", "--feed", "Nowhere"])
        #expect(feed.status == 66, "\(feed)")
        #expect(feed.stderr.hasPrefix("podcli: no feed 'Nowhere'"), "\(feed)")
    }

    @Test func aBadDateOrNothingToMarkIsAUsageError() throws {
        let l = try Library()
        for date in ["2025-02-30", "2025/01/03", "3 January", "25-01-03"] {
            let bad = try l.run(["mark", "played", "--before", date])
            #expect(bad.status == 64, "\(date): \(bad)")
            #expect(
                bad.stderr.hasPrefix(
                    "podcli: invalid value '\(date)' for '--before': expected a date, YYYY-MM-DD\nUsage: podcli mark played"
                ),
                "\(bad)")
        }
        let nothing = try l.run(["mark", "played"])
        #expect(nothing.status == 64, "\(nothing)")
        #expect(nothing.stderr.hasPrefix("podcli: give the episodes to mark: IDs, --feed FEED or --before DATE\n"))
        let misspelt = try l.run(["mark", "plyed", "1"])
        #expect(misspelt.status == 64, "\(misspelt)")
        #expect(misspelt.stderr.hasPrefix("podcli: unknown command 'plyed' (did you mean 'played'?)\n"))
        #expect(try l.titles(["--played"]).isEmpty)

        let help = try l.run(["mark", "played", "--help"])
        #expect(help.stdout.contains("YYYY-MM-DD"), "\(help)")
    }
}
