import Foundation
import TestSupport
import Testing

/// `podcli star|unstar ID...` and `list --starred` end to end: the built podcli, a feed over the
/// loopback server, a real SQLite file.
@Suite struct StarCommandTests {
    @Test func starredEpisodesAreListedAndShownAsStarred() throws {
        let show = try QueueCommandTests.Show()
        let (one, two, three) = (show.ids[1]!, show.ids[2]!, show.ids[3]!)

        let star = try show.run(["star", "\(one)", "\(three)"])
        #expect(star.status == 0, "\(star)")
        #expect(star.stdout == "Starred #\(one) Episode 1\nStarred #\(three) Episode 3\n")
        #expect(star.stderr.isEmpty)
        let again = try show.run(["star", "\(three)"])
        #expect(again.stdout == "#\(three) is already starred\n", "\(again)")

        #expect(try show.w.episodes(["--starred"]).map { $0["id"] as? Int } == [three, one])
        #expect(try show.w.episodes().map { $0["starred"] as? Bool } == [true, false, true], "Episodes 3, 2, 1")
        #expect(try show.w.t.show("\(three)")["starred"] as? Bool == true)
        #expect(try show.w.t.show("\(two)")["starred"] as? Bool == false)
        let shown = try show.run(["show", "\(three)"])
        #expect(shown.stdout.contains("\nState       downloaded, new, starred\n"), "\(shown)")

        let unstar = try show.run(["unstar", "\(three)", "\(two)"])
        #expect(unstar.status == 0, "\(unstar)")
        #expect(unstar.stdout == "Unstarred #\(three) Episode 3\n#\(two) was not starred\n")
        #expect(try show.w.episodes(["--starred"]).map { $0["id"] as? Int } == [one])
    }

    @Test func noStarredEpisodeSaysNothingMatches() throws {
        let show = try QueueCommandTests.Show()
        let list = try show.run(["list", "--starred"])
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout.isEmpty)
        #expect(list.stderr == "No episodes match.\n")
    }

    @Test func anUnknownEpisodeStarsNothingAndExits66() throws {
        let show = try QueueCommandTests.Show()
        let star = try show.run(["star", "\(show.ids[1]!)", "999"])
        #expect(star.status == 66, "\(star)")
        #expect(star.stdout.isEmpty)
        #expect(star.stderr == "podcli: no episode '999': give its number or a UUID prefix (see 'podcli list')\n")
        #expect(try show.w.episodes(["--starred"]).isEmpty)
        let bare = try show.run(["unstar"])
        #expect(bare.status == 64, "\(bare)")
        #expect(bare.stderr.hasPrefix("podcli: missing expected argument '<id>'\nUsage: podcli unstar"))
    }
}
