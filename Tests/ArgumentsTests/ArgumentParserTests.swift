import Arguments
import Testing

@Suite struct ArgumentParserTests {
    typealias Spec = PodcliSpec

    @Test func runsTheNamedCommandWithItsArguments() throws {
        let invocation = try #require(Spec.invocation(["fetch", "https://a.example/feed"]))
        #expect(invocation.commandPath == ["podcli", "fetch"])
        #expect(invocation.command.name == "fetch")
        #expect(invocation.arguments[Spec.url] == "https://a.example/feed")
        #expect(invocation.arguments[Spec.protection] == "private")  // the default
        #expect(invocation.arguments.values(Spec.protection).isEmpty)
        #expect(invocation.arguments[Spec.json] == false)
        #expect(invocation.arguments[Spec.home] == nil)
    }

    @Test func descendsIntoNestedSubcommands() throws {
        let invocation = try #require(Spec.invocation(["queue", "rm", "a", "b", "c"]))
        #expect(invocation.commandPath == ["podcli", "queue", "rm"])
        #expect(invocation.arguments.values(Spec.id) == ["a", "b", "c"])
        #expect(invocation.arguments[Spec.id] == "a")
    }

    @Test(arguments: [
        ["--home", "/h", "-q", "list"],
        ["list", "--home", "/h", "--quiet"],
        ["-q", "list", "--home=/h"],
    ])
    func acceptsGlobalsBeforeOrAfterTheCommand(arguments: [String]) throws {
        let invocation = try #require(Spec.invocation(arguments))
        #expect(invocation.commandPath == ["podcli", "list"])
        #expect(invocation.arguments[Spec.home] == "/h")
        #expect(invocation.arguments[Spec.quiet])
    }

    @Test func acceptsGlobalsBetweenNestedCommands() throws {
        let invocation = try #require(Spec.invocation(["queue", "-q", "add", "7", "--home", "/h"]))
        #expect(invocation.commandPath == ["podcli", "queue", "add"])
        #expect(invocation.arguments[Spec.quiet])
        #expect(invocation.arguments[Spec.home] == "/h")
        #expect(invocation.arguments.values(Spec.id) == ["7"])
    }

    @Test func takesAnInlineValueAfterEquals() throws {
        let invocation = try #require(
            Spec.invocation(["fetch", "--protection=open", "u", "--home=/a=b"]))
        #expect(invocation.arguments[Spec.protection] == "open")
        #expect(invocation.arguments[Spec.home] == "/a=b")  // only the first `=` splits
    }

    @Test func keepsEveryOccurrenceOfARepeatedOption() throws {
        let invocation = try #require(Spec.invocation(["list", "-n", "1", "--limit", "2", "--limit=3"]))
        #expect(invocation.arguments[Spec.limit] == "3")
        #expect(invocation.arguments.values(Spec.limit) == ["1", "2", "3"])
    }

    @Test func treatsEverythingAfterDoubleDashAsPositional() throws {
        let invocation = try #require(Spec.invocation(["queue", "add", "--", "--json", "-q", "--help"]))
        #expect(invocation.arguments.values(Spec.id) == ["--json", "-q", "--help"])
        #expect(!invocation.arguments[Spec.quiet])
    }

    @Test func takesANegativeNumberAsAPositional() throws {
        let invocation = try #require(Spec.invocation(["seek", "-15"]))
        #expect(invocation.arguments[Spec.seconds] == "-15")
    }

    @Test func takesADashedTokenAsAnOptionValue() throws {
        let invocation = try #require(Spec.invocation(["list", "--limit", "-3", "-n", "--json"]))
        #expect(invocation.arguments.values(Spec.limit) == ["-3", "--json"])
        #expect(!invocation.arguments[Spec.json])
    }

    @Test func takesADigitAsAShortOptionWhenOneIsDeclared() throws {
        let once = Flag("once", short: "1", help: "Play one episode.")
        let parser = ArgumentParser(
            root: CommandSpec(name: "play", abstract: "Play.", flags: [once]), version: "1")
        guard case .run(let invocation) = try parser.parse(["-1"]) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(invocation.arguments[once])
        #expect(throws: UsageFailure.self) { try parser.parse(["-15"]) }
    }

    @Test func rejectsAValueForAFlag() {
        #expect(Spec.failure(["list", "--json=yes"])?.error == .unexpectedValue(forFlag: "--json"))
    }

    @Test func rejectsAnOptionWithoutItsValue() {
        #expect(Spec.failure(["list", "--limit"])?.error == .missingValue(forOption: "--limit"))
        #expect(Spec.failure(["list", "-n"])?.error == .missingValue(forOption: "-n"))
    }

    @Test func rejectsBundledShortFlags() {
        #expect(Spec.failure(["list", "-qn"])?.error == .unknownOption("-qn", suggestion: nil))
    }

    @Test func rejectsOptionsOfOtherCommands() {
        let failure = Spec.failure(["seek", "--limit", "3", "1"])
        #expect(failure?.error == .unknownOption("--limit", suggestion: nil))
        #expect(failure?.commandPath == ["podcli", "seek"])
    }

    @Test func rejectsExtraPositionals() {
        let failure = Spec.failure(["seek", "10", "20"])
        #expect(failure?.error == .unexpectedArgument("20"))
    }

    @Test func requiresASubcommandForAGroup() {
        #expect(Spec.failure([])?.error == .missingCommand)
        let failure = Spec.failure(["queue"])
        #expect(failure?.error == .missingCommand)
        #expect(failure?.commandPath == ["podcli", "queue"])
    }

    /// `bookmarks [ID]` beside `bookmarks rm N`: a group with positionals of its own runs itself
    /// when its first word names none of its subcommands, or when it has no words.
    @Test func aGroupWithPositionalsRunsItselfUnlessItsFirstWordNamesASubcommand() throws {
        let episode = Positional("id", help: "The episode.", isOptional: true)
        let number = Positional("n", help: "The bookmark.")
        let bookmarks = CommandSpec(
            name: "bookmarks", abstract: "List bookmarks.", positionals: [episode], flags: [Spec.json],
            subcommands: [CommandSpec(name: "rm", abstract: "Remove a bookmark.", positionals: [number])])
        let parser = ArgumentParser(
            root: CommandSpec(name: "podcli", abstract: "A podcast manager.", subcommands: [bookmarks]),
            version: "0.1.0")
        func invocation(_ arguments: [String]) throws -> Invocation? {
            if case .run(let invocation) = try parser.parse(arguments) { return invocation }
            return nil
        }
        let all = try #require(try invocation(["bookmarks", "--json"]))
        #expect(all.commandPath == ["podcli", "bookmarks"] && all.arguments[episode] == nil)
        #expect(all.arguments[Spec.json])
        let one = try #require(try invocation(["bookmarks", "12"]))
        #expect(one.commandPath == ["podcli", "bookmarks"] && one.arguments[episode] == "12")
        let remove = try #require(try invocation(["bookmarks", "rm", "3"]))
        #expect(remove.commandPath == ["podcli", "bookmarks", "rm"] && remove.arguments[number] == "3")
        #expect(throws: UsageFailure.self) { try parser.parse(["bookmarks", "12", "rm"]) }
        guard case .help(let help) = try parser.parse(["bookmarks", "--help"]) else {
            Issue.record("expected help")
            return
        }
        #expect(help.contains("USAGE: podcli bookmarks [<options>] [<id>]\n"), "\(help)")
        #expect(help.contains("SUBCOMMANDS:\n  rm "), "\(help)")
    }

    @Test func aRootThatRunsBareIsAnInvocationWithItsGlobalOptionsButAGroupStillNeedsItsCommand() throws {
        let parser = ArgumentParser(
            root: CommandSpec(name: "podcli", abstract: "A command-line podcast manager.", subcommands: [Spec.queue]),
            globalOptions: [Spec.home], version: "0.1.0", rootRunsBare: true)
        guard case .run(let invocation) = try parser.parse(["--home", "/x"]) else {
            Issue.record("expected the root to run")
            return
        }
        #expect(invocation.commandPath == ["podcli"])
        #expect(invocation.arguments[Spec.home] == "/x")
        #expect(throws: UsageFailure.self) { try parser.parse(["queue"]) }
    }

    @Test func requiresARepeatingPositionalAtLeastOnce() {
        #expect(Spec.failure(["queue", "add"])?.error == .missingArgument("<id>"))
    }

    @Test(arguments: [["--version"], ["list", "--version"]])
    func printsTheVersion(arguments: [String]) throws {
        guard case .version(let text) = try Spec.parser.parse(arguments) else {
            Issue.record("expected the version")
            return
        }
        #expect(text == "podcli 0.1.0")
    }

    @Test func helpGoesToTheDeepestCommandNamed() throws {
        let fetchHelp = try #require(Spec.help(["fetch", "--help"]))
        #expect(fetchHelp.hasPrefix("OVERVIEW: Download an episode"))
        #expect(Spec.help(["-h", "fetch"]) == fetchHelp)
        #expect(Spec.help(["--home", "/h", "fetch", "u", "-h"]) == fetchHelp)
        #expect(Spec.help(["--help"])?.hasPrefix("OVERVIEW: A command-line podcast manager.") == true)
    }

    @Test func helpWinsOverAMistakeOnTheSameLine() throws {
        let fetchHelp = try #require(Spec.help(["fetch", "--help"]))
        #expect(Spec.help(["fetch", "--jsno", "--help"]) == fetchHelp)
        #expect(Spec.help(["fetch", "--help"]) == Spec.help(["fetch", "a", "b", "--help"]))
    }

    @Test func helpSubcommandShowsTheNamedCommandsHelp() throws {
        #expect(Spec.help(["help", "fetch"]) == Spec.help(["fetch", "--help"]))
        #expect(Spec.help(["help", "queue", "add"]) == Spec.help(["queue", "add", "--help"]))
        #expect(Spec.help(["help"]) == Spec.help(["--help"]))
    }

    /// The root's help (`rootHelpListsSubcommandsAndVersion`) does not list it either.
    @Test func aHiddenCommandRunsButIsNeitherListedNorSuggested() throws {
        let invocation = try #require(Spec.invocation(["notify-new", "--json"]))
        #expect(invocation.commandPath == ["podcli", "notify-new"])
        #expect(invocation.arguments[Spec.json])
        #expect(Spec.failure(["notify-nwe"])?.error == .unknownCommand("notify-nwe", suggestion: nil))
        #expect(Spec.help(["help", "notify-new"]) == Spec.help(["notify-new", "--help"]))
    }

    @Test func helpSubcommandRejectsUnknownNames() {
        let failure = Spec.failure(["help", "queue", "ad"])
        #expect(failure?.error == .unknownCommand("ad", suggestion: "add"))
        #expect(failure?.commandPath == ["podcli", "queue"])
        #expect(Spec.failure(["help", "seek", "x"])?.error == .unexpectedArgument("x"))
    }

    @Test func addsNoHelpSubcommandToALeafRoot() throws {
        let parser = ArgumentParser(
            root: CommandSpec(name: "tool", abstract: "A tool.", positionals: [Spec.url]),
            version: "1")
        guard case .run(let invocation) = try parser.parse(["help"]) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(invocation.arguments[Spec.url] == "help")
    }
}
