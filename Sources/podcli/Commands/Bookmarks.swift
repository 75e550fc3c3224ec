import Arguments
import EpisodeStore
import FoundationEssentials
import PodcliKit
import RemoteControl

/// `podcli bookmark [NOTE]`: bookmarks the moment the running player is at, as `b` does.
enum BookmarkButton: Command {
    static let note = Positional(
        "note", help: "What to remember about the moment (the words are joined).", isOptional: true,
        isRepeating: true)
    static let json = Flag("json", help: "Print the bookmark as JSON.")
    static let spec = CommandSpec(
        name: "bookmark", abstract: "Bookmark the moment the running player is at.",
        discussion: discussion, positionals: [note], flags: [json], group: .remoteControl)

    static let discussion = """
        Records the episode, the position heard, the chapter playing there and the note (at most \
        \(PlayerControl.noteLimit) characters); 'podcli bookmarks' lists them.

        Exit status: 64 when the note is too long, 66 when no player is running, 75 when the player \
        cannot record it now (suspended, not answering, or its library busy).
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        // One line to the player: a line break in the note is a space.
        let note = arguments.values(note).joined(separator: " ").split(whereSeparator: \.isNewline)
            .joined(separator: " ")
        guard note.count <= PlayerControl.noteLimit else {
            throw CommandFailure(
                description: "a bookmark's note is at most \(PlayerControl.noteLimit) characters (this one has "
                    + "\(note.count))", exitCode: .usage)
        }
        let reply = try ControlClient.send(
            note.isEmpty ? "bookmark" : "bookmark " + note, to: context.directories.get().controlSocket)
        if reply.hasPrefix("error ") {
            throw CommandFailure(description: String(reply.dropFirst("error ".count)), exitCode: .busy)
        }
        guard let bookmark = try? JSONDecoder().decode(BookmarkReport.self, from: Data(reply.utf8)) else {
            throw CommandFailure(description: reply, exitCode: .usage)
        }
        if arguments[json] {
            context.output.json(reply)
        } else {
            context.output.print("Bookmark \(bookmark.id): \(bookmark.episodeName) \(bookmark.moment)")
        }
    }
}

/// `podcli bookmarks [ID]`: the bookmarks, and the command that plays from each; a group for
/// `bookmarks rm`.
enum Bookmarks: Command {
    static let subcommands: [any Command.Type] = [BookmarksRemove.self]
    static let episode = Positional(
        "id", help: "Only this episode's bookmarks: its number or UUID prefix.", isOptional: true,
        domain: .dynamic(.episode))
    static let json = Flag("json", help: "Print the bookmarks as a JSON array.")
    static let spec = CommandSpec(
        name: "bookmarks", abstract: "List bookmarks, with the command that plays from each.",
        discussion: discussion,
        positionals: [episode], flags: [json], subcommands: subcommands.map { $0.spec }, group: .playback)

    static let discussion = """
        Bookmarks are made while playing, with the key b or 'podcli bookmark [NOTE]'. Each is \
        listed with its number (for 'bookmarks rm'; numbers are never reused), the episode, the \
        time heard and the chapter, the note, and 'podcli play ID --from TIME'. A bookmark kept \
        through 'unsubscribe --keep-bookmarks' whose episode was forgotten keeps the episode's and \
        the feed's titles and plays from its audio URL.

        --json keys: id, episode_id, episode, feed, url, position, from, chapter, note, created_at, command
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let episode = try arguments[Self.episode].map { try library.episode(matching: $0) }
        let bookmarks = try library.bookmarks(of: episode).map(BookmarkReport.init)
        if arguments[json] {
            context.output.json(try EpisodeReport.json(bookmarks))
            return
        }
        guard !bookmarks.isEmpty else {
            context.output.print(episode.map { "No bookmarks of #\($0.id)." } ?? "No bookmarks.")
            return
        }
        for bookmark in bookmarks {
            context.output.print(bookmark.line)
            context.output.print("    " + bookmark.command)
        }
    }
}

/// `podcli bookmarks rm N`: removes a bookmark by its number.
enum BookmarksRemove: Command {
    static let number = Positional("n", help: "The bookmark's number, as 'podcli bookmarks' lists it.")
    static let spec = CommandSpec(
        name: "rm", abstract: "Remove a bookmark.", discussion: discussion, positionals: [number])

    static let discussion = """
        Exit status: 64 when NUMBER is not a number, 66 when no bookmark has it.
        """

    /// - Throws: a usage failure for what is not a number, a `notFound` one for a number no
    ///   bookmark has.
    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let text = arguments[number]!
        guard let number = Int(text), number > 0 else {
            throw CommandFailure(
                description: "'\(text)' is not a bookmark's number (see 'podcli bookmarks')", exitCode: .usage)
        }
        guard try context.library().removeBookmark(number) else {
            throw CommandFailure(description: "no bookmark \(number) (see 'podcli bookmarks')", exitCode: .notFound)
        }
        context.output.print("Removed bookmark \(number)")
    }
}
