import Arguments
import Testing

/// Help text, as `--help` and `podcli help …` print it.
@Suite struct HelpRendererTests {
    typealias Spec = PodcliSpec

    @Test func leafCommandHelp() {
        #expect(
            Spec.help(["fetch", "--help"]) == """
                OVERVIEW: Download an episode or subscribe to a feed.

                USAGE: podcli fetch [<options>] <url>

                ARGUMENTS:
                  <url>                   The audio or feed URL (http or https).

                OPTIONS:
                  --protection <class>    Protection class: private (owner only) or open.
                                          (default: private) (one of: private, open)
                  --json                  Print the result as JSON.
                  --home <dir>            Keep everything podcli writes in <dir>.
                  -q, --quiet             Print nothing but errors.
                  -h, --help              Show help information.
                """)
    }

    @Test func rootHelpListsSubcommandsAndVersion() {
        #expect(
            Spec.help(["--help"]) == """
                OVERVIEW: A command-line podcast manager.

                USAGE: podcli <subcommand>

                OPTIONS:
                  --home <dir>            Keep everything podcli writes in <dir>.
                  -q, --quiet             Print nothing but errors.
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  fetch                   Download an episode or subscribe to a feed.
                  list                    List episodes.
                  queue                   Manage the play queue.
                  seek                    Move the playback position.
                  help                    Show subcommand help information.

                See 'podcli help <subcommand>' for detailed help.
                """)
    }

    @Test func nestedGroupHelp() {
        #expect(
            Spec.help(["help", "queue"]) == """
                OVERVIEW: Manage the play queue.

                USAGE: podcli queue <subcommand>

                OPTIONS:
                  --home <dir>            Keep everything podcli writes in <dir>.
                  -q, --quiet             Print nothing but errors.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  add                     Add episodes to the queue.
                  rm                      Remove episodes from the queue.

                See 'podcli help queue <subcommand>' for detailed help.
                """)
    }

    @Test func repeatingPositionalInUsageAndArguments() {
        let help = Spec.help(["queue", "add", "-h"])
        #expect(help?.contains("USAGE: podcli queue add [<options>] <id> ...\n") == true)
        #expect(help?.contains("\n  <id> ...                The episode ids.\n") == true)
    }

    @Test func discussionOptionalPositionalAndWrapping() throws {
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "tag", abstract: "Tag an episode.",
                discussion: """
                    Tags are free-form words kept with the episode; listing by tag finds them \
                    again later, across every feed you follow.

                    Example:
                      tag 42 --name news
                    """,
                positionals: [Positional("id", help: "The episode.", isOptional: true)],
                options: [
                    Option(
                        "name", short: "n", valueName: "tag",
                        help: "The tag to add, in lower case; it is created if no episode has it yet.",
                        defaultValue: "later"),
                    Option("a-rather-long-option", valueName: "value", help: "Shows a wide label."),
                ]),
            version: "1")
        guard case .help(let help) = try parser.parse(["-h"]) else {
            Issue.record("expected help")
            return
        }
        #expect(
            help == """
                OVERVIEW: Tag an episode.

                Tags are free-form words kept with the episode; listing by tag finds them again
                later, across every feed you follow.

                Example:
                  tag 42 --name news

                USAGE: tag [<options>] [<id>]

                ARGUMENTS:
                  <id>                    The episode.

                OPTIONS:
                  -n, --name <tag>        The tag to add, in lower case; it is created if no
                                          episode has it yet. (default: later)
                  --a-rather-long-option <value>
                                          Shows a wide label.
                  --version               Show the version.
                  -h, --help              Show help information.
                """)
    }

    @Test func rootHelpListsCommandsByGroupThenTheUngrouped() throws {
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "podcli", abstract: "Podcasts.",
                subcommands: [
                    CommandSpec(name: "sync", abstract: "Refresh.", group: .maintenance),
                    CommandSpec(name: "pause", abstract: "Pause.", group: .remoteControl),
                    CommandSpec(name: "fetch", abstract: "Fetch.", group: .library),
                    CommandSpec(name: "play", abstract: "Play.", group: .playback),
                    CommandSpec(name: "list", abstract: "List.", group: .library),
                    CommandSpec(name: "notify", abstract: "Hidden.", isHidden: true, group: .library),
                ]),
            version: "1")
        guard case .help(let help) = try parser.parse(["--help"]) else {
            Issue.record("expected help")
            return
        }
        #expect(
            help.hasSuffix(
                """
                LIBRARY:
                  fetch                   Fetch.
                  list                    List.

                PLAYBACK:
                  play                    Play.

                REMOTE CONTROL:
                  pause                   Pause.

                MAINTENANCE:
                  sync                    Refresh.

                OTHER:
                  help                    Show subcommand help information.

                See 'podcli help <subcommand>' for detailed help.
                """), "\(help)")
    }

    @Test func aLongListItemOrIndentedLineWrapsUnderItsOwnText() throws {
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "tag", abstract: "Tag an episode.",
                discussion: """
                    Rules:
                    - A tag is a free-form word kept with the episode; listing by tag finds it again later.
                      tag 42 --name news --name sport --name weather --name traffic --name arts
                    """),
            version: "1")
        guard case .help(let help) = try parser.parse(["-h"]) else {
            Issue.record("expected help")
            return
        }
        #expect(
            help.contains(
                """
                Rules:
                - A tag is a free-form word kept with the episode; listing by tag finds it again
                  later.
                  tag 42 --name news --name sport --name weather --name traffic --name arts

                """), "\(help)")
    }

    @Test func examplesFollowTheOptionsEachLineWholeItsExplanationWrappedUnderIt() throws {
        let command = "podcli sync --quiet --limit-rate 500K --home /srv/podcasts/a-directory-with-a-long-name/x"
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "sync", abstract: "Sync.",
                examples: [
                    Example(
                        command, "What cron runs: refresh, delete, download, printing only failures, every half hour.")
                ]),
            version: "1")
        guard case .help(let help) = try parser.parse(["-h"]) else {
            Issue.record("expected help")
            return
        }
        #expect(
            help.hasSuffix(
                """
                  -h, --help              Show help information.

                EXAMPLES:
                  \(command)
                      What cron runs: refresh, delete, download, printing only failures, every
                      half hour.
                """), "\(help)")
    }

    @Test func usageWithoutAnyOptions() throws {
        let parser = ArgumentParser(
            root: CommandSpec(name: "echo", abstract: "Echo.", positionals: [Spec.id]), version: "1")
        let expected = UsageFailure(
            error: .missingArgument("<id>"), commandPath: ["echo"], usage: "echo <id> ...")
        #expect(throws: expected) { try parser.parse([]) }
    }
}
