import Foundation
import TestSupport
import Testing

/// URLs inside feeds and OPML files, as publishers write them: one podcli cannot fetch (`ftp:`,
/// `data:`) is the document's mistake, not the command line's (never exit 64): it is skipped
/// with a note and the rest is used; one with a space in it is encoded and used.
@Suite struct DocumentURLTests {
    typealias World = FeedCommandTests.World

    @Test func importAndSyncSkipWhatTheyCannotFetchWithANoteAndEncodeSpaces() throws {
        let w = try World()
        try w.t.home.write("download = all\n", to: "config")
        let good = try w.audioItem(1).spec
        var spaced = try w.audioItem(2).spec
        try FileManager.default.moveItem(
            at: w.directory.appendingPathComponent("ep2.mp3"), to: w.directory.appendingPathComponent("my episode.mp3"))
        spaced.url = w.url("my episode.mp3")
        var ftp = w.item(3)
        ftp.url = "ftp://media.example.com/ep3.mp3"
        var data = w.item(4)
        data.url = "data:audio/mpeg;base64,SUQzBAAAAAAAAA=="
        let document = FeedCommandTests.rss(title: "Mixed", items: [data, ftp, spaced, good])
        try w.serve("my show.xml", document)
        let feed = w.url("my show.xml")
        let opml = try w.t.home.write(
            """
            <opml version="2.0"><body>
            <outline type="rss" text="Old" xmlUrl="ftp://example.com/feed.xml"/>
            <outline type="rss" text="Mixed" xmlUrl="\(feed)"/>
            <outline type="rss" text="Inline" xmlUrl="data:text/xml,&lt;rss/&gt;"/>
            </body></opml>
            """, to: "in.opml")

        let imported = try w.t.run(["import", opml.path])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "Subscribed to 1 feed, refreshed 0\n")
        let encodedFeed = feed.replacingOccurrences(of: " ", with: "%20")
        #expect(
            imported.stderr
                == "\(opml.path): skipped 2 outlines whose feed URL is not http or https "
                + "(the first: ftp://example.com/feed.xml)\n"
                + "\(encodedFeed): skipped 2 items whose audio is not at an http or https URL "
                + "(the first: data:audio/mpeg;base64,SUQzBAAAAAAAAA==)\n", "\(imported)")
        #expect(try w.feeds().map { $0["url"] as? String } == [encodedFeed])
        #expect(try w.episodes(["--all"]).compactMap { $0["title"] as? String } == ["Episode 2", "Episode 1"])

        // The feed changed: read again, the same note; the two episodes it has are downloaded.
        try w.serve("my show.xml", document)
        let sync = try w.t.run(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(
            sync.stderr
                == "#1 Mixed: skipped 2 items whose audio is not at an http or https URL "
                + "(the first: data:audio/mpeg;base64,SUQzBAAAAAAAAA==)\n", "\(sync)")
        #expect(sync.stdout.contains("Synced 1 feed, 0 new, 2 downloaded"), "\(sync)")
        let downloaded = try w.episodes(["--downloaded"])
        #expect(downloaded.count == 2)
        #expect(try w.requests("my%20episode.mp3").contains { $0.status == 200 })

        let quiet = try w.t.run(["refresh", "--quiet"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet)")
    }

    /// A library an older podcli filled may hold an episode at an `ftp:` URL: downloading it is
    /// that feed's failure (65), not a mistake on the command line (64).
    @Test func anEpisodeRecordedAtAURLPodcliCannotFetchIsBadContentToSync() throws {
        let w = try World()
        try w.serve("show.xml", FeedCommandTests.rss(title: "Old", items: [try w.audioItem(1).spec]))
        #expect(try w.t.run(["fetch", w.url("show.xml")]).status == 0)
        let sql = "UPDATE episodes SET source_url = replace(source_url, 'http://', 'ftp://');"
        let edit = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [w.t.home.path + "/podcli.db", sql],
            environment: [:]
        ).waitUntilExit()
        #expect(edit.status == 0, "\(edit)")
        try w.t.home.write("download = all\n", to: "config")

        let sync = try w.t.run(["sync"])
        #expect(sync.status == 65, "\(sync)")
        #expect(sync.stderr.contains("is not an http or https URL"), "\(sync)")
    }

    @Test func anOPMLFileWithNoFeedPodcliCanFetchIsBadContent() throws {
        let t = try CLITestCase()
        let opml = try t.home.write(
            #"<opml version="2.0"><body><outline type="rss" text="Old" xmlUrl="ftp://example.com/feed.xml"/>"#
                + "</body></opml>", to: "in.opml")
        let result = try t.run(["import", opml.path])
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr
                == "podcli: \(opml.path): no outline has an http or https feed URL (ftp://example.com/feed.xml)\n")
        #expect(result.stdout.isEmpty)
    }
}
