import Arguments
import EpisodeStore
import PodcliKit

/// `podcli config get|set|unset|list`: reads and changes the configuration file. A group: its
/// subcommands do the work.
enum Configure: Command {
    static let subcommands: [any Command.Type] = [ConfigGet.self, ConfigSet.self, ConfigUnset.self, ConfigList.self]

    static let spec = CommandSpec(
        name: "config", abstract: "Read or change settings in the configuration file.",
        discussion: discussion,
        subcommands: subcommands.map { $0.spec }, group: .maintenance)

    static let discussion = """
        The file is $XDG_CONFIG_HOME/podcli/config (or config under --home): 'key = value' lines, \
        '#' comments, and [feed "NAME"] sections for one feed, NAME naming it as any FEED does (its \
        number, URL or a unique part of its title). --feed finds a feed's section whatever name it \
        was written with; a new section is named by the feed's title.

        Sizes are bytes or K, M, G, T (binary: 500M, 1.5G); durations are seconds or s, m, h, d \
        (90m). An unknown key, a bad value or a malformed line is reported with the file and line \
        ('.../config:7: keep must be ...') and exit 64, by every command that reads the file.

        --json keys (list): settings, feeds (each with name, settings)
        """

    /// Not reached: the parser refuses a group named without one of its subcommands.
    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        throw UsageError.missingCommand
    }

    static let key = Positional(
        "key", help: "A setting ('podcli config list' shows them all).", domain: .dynamic(.setting))
    static let feed = Option(
        "feed", valueName: "name",
        help: "The setting for this feed (its number, URL or a unique part of its title), in its [feed] section.",
        domain: .dynamic(.feed))

    /// The setting and feed section `arguments` name.
    static func reference(_ arguments: ParsedArguments, in context: Context) throws -> SettingReference {
        try SettingReference(key: arguments[key]!, feed: arguments[feed]) { try context.library().subscriptions() }
    }

    /// The configuration file, checked: a change is not written into a file with mistakes.
    static func file(in context: Context) throws -> (ConfigFile, Config) {
        let file = ConfigFile(path: try context.directories.get().configFile)
        return (file, try file.config())
    }
}

enum ConfigGet: Command {
    static let spec = CommandSpec(
        name: "get", abstract: "Print a setting's value in effect (the default when the file does not set it).",
        positionals: [Configure.key], options: [Configure.feed])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let reference = try Configure.reference(arguments, in: context)
        context.output.print(reference.value(in: try Configure.file(in: context).1), always: true)
    }
}

enum ConfigSet: Command {
    static let value = Positional("value", help: "The new value.", domain: .dynamic(.settingValue))
    static let spec = CommandSpec(
        name: "set", abstract: "Change a setting in the configuration file (comments and other lines are kept).",
        positionals: [Configure.key, value], options: [Configure.feed],
        examples: [
            Example("podcli config set keep 5 --feed 3", "Keep only the five newest episodes of feed 3 downloaded."),
            Example("podcli config set speed 1.3", "Play everything at 1.3 times the speed, pitch kept."),
        ])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let reference = try Configure.reference(arguments, in: context)
        var (file, _) = try Configure.file(in: context)
        try reference.set(to: arguments[value]!, in: &file)
        try file.write()
    }
}

enum ConfigUnset: Command {
    static let spec = CommandSpec(
        name: "unset", abstract: "Remove a setting from the configuration file, back to its default.",
        positionals: [Configure.key], options: [Configure.feed])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let reference = try Configure.reference(arguments, in: context)
        var (file, _) = try Configure.file(in: context)
        if reference.unset(in: &file) { try file.write() }
    }
}

enum ConfigList: Command {
    static let json = Flag("json", help: "Print the settings and the feed sections as a JSON object.")
    static let spec = CommandSpec(
        name: "list", abstract: "Print every setting in effect, then each feed section, as the file would hold them.",
        flags: [json])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let config = try Configure.file(in: context).1
        if arguments[json] {
            context.output.json(try EpisodeReport.json(ConfigReport(config)))
            return
        }
        for setting in Setting.allCases {
            context.output.print("\(setting.rawValue) = \(setting.value(in: config))", always: true)
        }
        for section in config.feedSections {
            context.output.print("", always: true)
            context.output.print("[feed \"\(section.name)\"]", always: true)
            for assignment in section.assignments {
                context.output.print("\(assignment.setting.rawValue) = \(assignment.value)", always: true)
            }
        }
    }
}
