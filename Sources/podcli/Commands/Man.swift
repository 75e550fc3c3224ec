import Arguments
import FoundationEssentials
import PodcliKit

#if canImport(Glibc)
    import Glibc
#endif

/// `podcli man`: the manual page, rendered from the command specs (`ManPage`) with the sections
/// only the program knows: the settings table, files, environment, exit codes, and running sync
/// on a schedule.
enum Man: Command {
    static let spec = CommandSpec(
        name: "man", abstract: "Print podcli's manual page (roff): 'podcli man | man -l -' shows it.",
        group: .maintenance,
        examples: [
            Example("podcli man > ~/.local/share/man/man1/podcli.1", "Install the manual page for 'man podcli'.")
        ])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let date = Date.now.formatted(.iso8601.year().month().day())
        // Not `output.print`: that makes each line printable, and the page is many lines.
        Output.write(page(date: date), to: STDOUT_FILENO)
    }

    static func page(date: String) -> String {
        ManPage.render(
            Podcli.parser, date: date, sections: [configuration, files, environment, exitStatus],
            examples: SyncSchedule.examples)
    }

    static let configuration = ManSection(
        "CONFIGURATION",
        [
            .paragraph(
                "The file holds 'key = value' lines, '#' comments and blank lines. Settings before any section "
                    + "apply everywhere; a [feed \"NAME\"] section (NAME: the feed's number, URL or a unique part "
                    + "of its title) gives the per-feed ones for one feed. 'podcli config set KEY VALUE "
                    + "[--feed NAME]' changes the file, 'podcli config list' prints what is in effect. Sizes are "
                    + "binary (500M, 2G), durations 90m or 3h.")
        ]
            + Setting.allCases.map { setting in
                .item(
                    label: "\(setting.rawValue) = \(setting.definition.type)",
                    text:
                        "\(setting.summary). Default: \(setting.defaultValue.isEmpty ? "unset" : setting.defaultValue)"
                        + (setting.isPerFeed ? "; also per feed." : "."))
            })

    static let files = ManSection(
        "FILES",
        [
            .item(
                label: "$XDG_CONFIG_HOME/podcli/config",
                text: "The configuration file (default ~/.config/podcli/config)."),
            .item(
                label: "$XDG_DATA_HOME/podcli/podcli.db",
                text: "The library: feeds, episodes, positions, the queue (default ~/.local/share/podcli/)."),
            .item(
                label: "$XDG_DATA_HOME/podcli/episodes/UUID/",
                text: "An episode's download, its artwork, chapters and transcript."),
            .item(
                label: "$XDG_STATE_HOME/podcli/sync.log",
                text: "What each sync did (default ~/.local/state/podcli/); past 256 KiB it becomes sync.log.1."),
            .item(
                label: "$XDG_RUNTIME_DIR/podcli/control",
                text: "The running player's control socket; without XDG_RUNTIME_DIR, $TMPDIR/podcli-UID/control "
                    + "(/tmp by default)."),
            .paragraph(
                "With --home DIR or PODCLI_HOME, every one of them is in DIR: DIR/config, DIR/podcli.db, "
                    + "DIR/episodes/, DIR/sync.log, DIR/control."),
        ])

    static let environment = ManSection(
        "ENVIRONMENT",
        [
            .item(label: "PODCLI_HOME", text: "Keep everything podcli writes in this directory, as --home does."),
            .item(label: "PODCLI_DEVICE", text: "The ALSA device play uses, over the device setting."),
            .item(
                label: PasswordSource.environmentVariable,
                text: "The sync server's password, over gpodder-password-command."),
            .item(
                label: "PODCLI_SEARCH_RANK_LIMIT",
                text: "How many matches 'list --search' ranks before it lists the rest newest first (tuning)."),
            .item(
                label: BackgroundPlayer.marker,
                text: "Set to 1 by podcli for the player it starts in the background; not for people."),
            .item(label: "HOME", text: "Where the XDG directories are by default."),
            .item(
                label: "XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_STATE_HOME",
                text: "Where the library, the configuration and the sync log are (see FILES); relative paths are "
                    + "ignored."),
            .item(
                label: "XDG_RUNTIME_DIR",
                text: "Where the player's control socket is; also how sync finds the session bus."),
            .item(label: "TMPDIR", text: "Where the control socket is without XDG_RUNTIME_DIR."),
            .item(
                label: "DBUS_SESSION_BUS_ADDRESS",
                text: "The session bus for MPRIS and the new-episode notification."),
            .item(label: "COLUMNS", text: "The width transcript wraps at when stdout is not a terminal."),
        ])

    static let exitStatus = ManSection(
        "EXIT STATUS",
        ExitCode.allCases.map { ManBlock.item(label: "\($0.rawValue)", text: $0.meaning) } + [
            .item(
                label: "128+N",
                text: "play was stopped by signal N (SIGINT, SIGTERM, SIGHUP) after saving the position.")
        ])
}

/// The schedules the README and the man page give for `podcli sync`, and that
/// scripts/install.sh installs (scripts/systemd/): the tests check they agree.
enum SyncSchedule {
    static let crontabLine = "17 * * * *  /usr/local/bin/podcli sync --quiet"

    static let service = """
        [Unit]
        Description=Refresh podcasts and download new episodes (podcli sync)

        [Service]
        Type=oneshot
        Environment=PATH=%h/.local/bin:/usr/local/bin:/usr/bin:/bin
        ExecStart=/usr/bin/env podcli sync --quiet
        Nice=10
        IOSchedulingClass=idle
        """

    static let timer = """
        [Unit]
        Description=Run podcli sync every hour

        [Timer]
        OnCalendar=hourly
        RandomizedDelaySec=10m
        Persistent=true

        [Install]
        WantedBy=timers.target
        """

    static let examples: [ManBlock] = [
        .paragraph("Run sync every hour from cron ('crontab -e'; cron's PATH is short, so give the full path):"),
        .literal(crontabLine),
        .paragraph(
            "Or from a systemd user timer (scripts/install.sh installs both units): save these two files in "
                + "~/.config/systemd/user/, then 'systemctl --user daemon-reload && systemctl --user enable "
                + "--now podcli-sync.timer'. podcli-sync.service:"),
        .literal(service),
        .paragraph("podcli-sync.timer:"),
        .literal(timer),
    ]
}
