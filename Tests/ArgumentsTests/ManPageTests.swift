import Arguments
import Testing

/// The man page `ManPage` renders from the specs (the real page, linted by groff and mandoc, is
/// checked in podcliTests' ManCommandTests).
@Suite struct ManPageTests {
    static let parser = ArgumentParser(
        root: CommandSpec(
            name: "podcli", abstract: "A command-line podcast manager.",
            discussion: "Data lives in ~/.local/share/podcli.\n\nA second paragraph.",
            subcommands: [
                CommandSpec(
                    name: "fetch", abstract: "Download an episode.",
                    positionals: [Positional("url", help: "The URL.")],
                    options: [
                        Option("protection", valueName: "class", help: "private or open.", defaultValue: "private")
                    ],
                    group: .library, examples: [Example("podcli fetch https://example.org/feed.xml", "Subscribe.")]),
                CommandSpec(
                    name: "queue", abstract: "Manage the queue.",
                    subcommands: [
                        CommandSpec(
                            name: "add", abstract: ".dot first, then a back\\slash and caf\u{E9} \u{2192} on.",
                            flags: [Flag("next", help: "Play them next.")])
                    ], group: .playback),
                CommandSpec(name: "notify-new", abstract: "Hidden.", isHidden: true, group: .maintenance),
            ]),
        globalOptions: [Option("home", valueName: "dir", help: "Keep everything in <dir>.")], version: "0.1.0")

    static let page = ManPage.render(
        parser, date: "2026-12-03",
        sections: [ManSection("FILES", [.item(label: "~/.config/podcli/config", text: "Settings.")])],
        examples: [.paragraph("From cron:"), .literal("17 * * * *  podcli sync\n\n# end")])

    @Test func headerNameAndSectionsInOrder() {
        let lines = Self.page.split(separator: "\n").map(String.init)
        #expect(lines.first == #".TH PODCLI 1 "2026-12-03" "podcli 0.1.0" "User Commands""#)
        let headings = lines.filter { $0.hasPrefix(".SH ") }
        #expect(
            headings == [
                #".SH "NAME""#, #".SH "SYNOPSIS""#, #".SH "DESCRIPTION""#, #".SH "OPTIONS""#, #".SH "COMMANDS""#,
                #".SH "FILES""#, #".SH "EXAMPLES""#,
            ])
        #expect(lines.contains(#"podcli \- A command\-line podcast manager."#))
    }

    @Test func commandsByGroupWithTheirOptionsAndSubcommands() {
        let page = Self.page
        #expect(page.contains(".SS \"Library\"\n.TP\n\\fBpodcli fetch\\fR [<options>] <url>\nDownload an episode.\n"))
        #expect(page.contains(".TP\n\\fB\\-\\-protection <class>\\fR\nprivate or open. (default: private)\n"))
        #expect(page.contains(".SS \"Playback\"\n.TP\n\\fBpodcli queue\\fR <subcommand>\n"))
        #expect(page.contains("\\fBpodcli queue add\\fR [<options>]\n"))
        #expect(page.contains(".SS \"Other\"\n.TP\n\\fBpodcli help\\fR"))
        #expect(!page.contains("notify"))
        #expect(page.contains(".TP\n\\fB\\-\\-home <dir>\\fR\nKeep everything in <dir>.\n"))
    }

    /// A discussion's list items and indented lines (play's keys) keep their shape, as in --help.
    @Test func aDiscussionsListItemsAndIndentedLinesKeepTheirShape() {
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "podcli", abstract: "Podcasts.",
                subcommands: [
                    CommandSpec(
                        name: "play", abstract: "Play.",
                        discussion: """
                            Keys:
                              space     play / pause
                              q         quit

                            Listening:
                            - speed: pitch kept, heard at once.
                            Then text,
                            and more.
                            """, group: .playback)
                ]),
            version: "1")
        let page = ManPage.render(parser, date: "2026-12-03")
        #expect(
            page.contains(
                """
                Play.
                .IP
                Keys:
                .IP
                .nf
                space     play / pause
                q         quit
                .fi
                .IP
                Listening:
                .RS
                .IP \\(bu 2
                speed: pitch kept, heard at once.
                .RE
                .IP
                Then text, and more.

                """), "\(page)")
    }

    @Test func textIsEscapedForRoff() {
        // A leading dot would be a request; groff reads bytes, so non-ASCII goes as \[uXXXX].
        #expect(Self.page.contains("\n\\&.dot first, then a back\\eslash and caf\\[u00E9] \\[u2192] on.\n"))
    }

    @Test func examplesFromTheSpecsThenTheGivenOnes() {
        #expect(
            Self.page.hasSuffix(
                """
                .SH "EXAMPLES"
                Subscribe.
                .RS 4
                .nf
                podcli fetch https://example.org/feed.xml
                .fi
                .RE
                .PP
                From cron:
                .RS 4
                .nf
                17 * * * *  podcli sync
                \\&
                # end
                .fi
                .RE

                """))
    }

    @Test func longTextIsWrappedUnder80Bytes() {
        let parser = ArgumentParser(
            root: CommandSpec(name: "x", abstract: String(repeating: "word ", count: 60)), version: "1")
        let lines = ManPage.render(parser, date: "2026-12-03").split(separator: "\n")
        #expect(lines.allSatisfy { $0.utf8.count < 80 }, "\(lines)")
    }
}
