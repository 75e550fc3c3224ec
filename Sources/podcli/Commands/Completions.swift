import Arguments
import EpisodeStore
import FoundationEssentials
import Playback
import PodcliKit
import Strings

/// `podcli completions bash|zsh|fish`: the shell's completion script, generated from the
/// command specs by `CompletionScript`; its dynamic values come from `podcli __complete`.
enum Completions: Command {
    static let shell = Positional(
        "shell", help: "The shell the script is for.", domain: .choices(CompletionShell.allCases.map(\.rawValue)))

    static let spec = CommandSpec(
        name: "completions", abstract: "Print a completion script for bash, zsh or fish.",
        discussion: """
            scripts/install.sh installs all three. By hand, save it (or source it):
            bash: as ~/.local/share/bash-completion/completions/podcli.
            zsh: as _podcli in a directory of $fpath (before compinit runs).
            fish: as ~/.config/fish/completions/podcli.fish.
            Episode and feed numbers are completed with their titles, from the library.
            """,
        positionals: [shell], group: .maintenance,
        examples: [
            Example(
                "podcli completions bash > ~/.local/share/bash-completion/completions/podcli",
                "Complete podcli's commands, options and episodes in bash from the next shell on.")
        ])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let root = Podcli.parser.root
        // The parser let only the shells through.
        let script = CompletionScript.script(
            for: CompletionShell(rawValue: arguments[shell]!)!, root: root, commandName: root.name,
            globalOptions: GlobalOptions.options, globalFlags: GlobalOptions.flags)
        // Podcli's own text, printed as is (a help text's `user:password@host` is not a password).
        context.output.stdout(script)
    }
}

/// `podcli __complete KIND [PREFIX [TYPED...]]`: the values a completion script offers for KIND,
/// one `VALUE<TAB>DESCRIPTION` a line, those starting with PREFIX; TYPED are the positionals typed
/// before (`setting-value` reads its key there). Hidden: the scripts run it.
///
/// Run at every Tab, so it reads little: the newest episodes whose number starts with PREFIX,
/// ALSA's hints (no device opened), and nothing at all (no library made) where there is no
/// library yet.
enum CompleteCommand: Command {
    static let kind = Positional(
        "kind", help: "What to list.", domain: .choices(CompletionKind.allCases.map(\.rawValue)))
    static let prefix = Positional("prefix", help: "Only values starting with this.", isOptional: true)
    static let typed = Positional(
        "typed", help: "The positionals typed before the value completed.", isOptional: true, isRepeating: true)
    /// The episodes offered: the newest, as many as a screen shows.
    static let episodeLimit = 100

    static let spec = CommandSpec(
        name: "__complete", abstract: "List the values a completion script offers.",
        positionals: [kind, prefix, typed], isHidden: true)

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let prefix = arguments[prefix] ?? ""
        // The parser let only the kinds through.
        let candidates = try self.candidates(
            CompletionKind(rawValue: arguments[kind]!)!, prefix: prefix, typed: arguments.values(typed), in: context)
        for (value, description) in candidates where value.hasPrefix(prefix) {
            // A feed's titles could hold escape sequences: each field made printable, then the tab.
            guard
                context.output.stdout(PrintableText.line(value) + "\t" + PrintableText.line(description) + "\n")
            else { return }
        }
    }

    /// A value offered, and what it is.
    typealias Candidate = (value: String, description: String)

    private static func candidates(_ kind: CompletionKind, prefix: String, typed: [String], in context: Context) throws
        -> [Candidate]
    {
        switch kind {
        case .setting:
            return Setting.allCases.map { ($0.rawValue, $0.summary) }
        case .settingValue:
            // `config set KEY VALUE`: nothing for a key podcli does not know (the shell stays quiet).
            guard let setting = typed.first.flatMap(Setting.init(rawValue:)) else { return [] }
            // Its NAME is an ALSA device's, as for `play --device`.
            return setting == .device ? devices() : settingValues(setting)
        case .device:
            return devices()
        case .feed:
            guard let library = try existingLibrary(in: context) else { return [] }
            return try library.subscriptions().map { ("\($0.id)", $0.title) }
        case .episode:
            guard let library = try existingLibrary(in: context) else { return [] }
            // The newest of those whose number starts with what is typed, at most a screenful.
            return try library.newestEpisodes(numberedFrom: prefix, limit: episodeLimit).map { episode in
                ("\(episode.id)", episode.feedTitle.map { "\(episode.title) (\($0))" } ?? episode.title)
            }
        }
    }

    /// The words `setting`'s type spells out (`off`, `none`), its default said so.
    private static func settingValues(_ setting: Setting) -> [Candidate] {
        let defaultValue = setting.defaultValue
        return setting.literalValues.map { ($0, $0 == defaultValue ? "the default" : "") }
    }

    /// `default` and `null` first (the names `play --device` speaks of), then ALSA's playback
    /// devices, each once; ALSA's description where it has one.
    private static func devices() -> [Candidate] {
        let listed = ALSADevice.playbackDevices()
        let own = [("default", "ALSA's default device"), ("null", "play silently")].map { name, description in
            (name, listed.first { $0.name == name && !$0.description.isEmpty }?.description ?? description)
        }
        var seen: Set<String> = []
        return (own + listed.map { ($0.name, $0.description) }).filter { seen.insert($0.value).inserted }
    }

    /// The library, unless there is none yet: completing makes nothing.
    private static func existingLibrary(in context: Context) throws -> Library? {
        let data = try context.directories.get().data
        guard FileManager.default.fileExists(atPath: data + "/podcli.db") else { return nil }
        return try context.library()
    }
}
