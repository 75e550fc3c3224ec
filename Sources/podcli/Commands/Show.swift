import Arguments
import EpisodeStore
import PodcliKit

/// `podcli show ID`: everything recorded about one episode.
enum Show: Command {
    static let id = Positional(
        "id", help: "The episode's number or a unique prefix of its UUID.", domain: .dynamic(.episode))
    static let json = Flag("json", help: "Print the episode as JSON.")

    static let spec = CommandSpec(
        name: "show", abstract: "Show an episode: its file, checksum, protection and position.",
        discussion: discussion,
        positionals: [id], flags: [json], group: .library)

    static let discussion = """
        Prints the episode's record, its chapters and its description as plain text. Chapters are \
        merged from every source: the downloaded file's own (ID3 CHAP, MP4 chapter tracks, Vorbis \
        comments) are the list when it has them, taking a title, URL or image from the feed's chapter \
        starting within a second; else the feed's (its Podcasting 2.0 chapters file, else Podlove's). \
        A broken source is one 'Chapters' line saying why. A measured file shows 'Loudness -18.3 \
        LUFS, true peak -1.2 dBTP'; skip silence's savings show as 'Skipped 0:10 of silence'.

        --json keys: id, uuid, title, state, status, url, path, size, sha256, mode, owner_uid, protection, format, position, played, kept, starred, created_at, downloaded_at, verified_at, last_error, feed_id, feed, guid, published_at, duration, link, description, image_url, episode, season, new, in_feed, chapters, chapter_problems, chapters_url, transcripts, persons, loudness, true_peak, silence_skipped

        Exit status: 66 when no episode has that ID.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let report = try EpisodeReport(library.episode(matching: arguments[id]!), in: library)
        if arguments[json] {
            context.output.json(try EpisodeReport.json(report))
        } else {
            for line in report.lines { context.output.print(line) }
        }
    }
}
