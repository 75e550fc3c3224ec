import Arguments
import Testing

/// What a value domain does while parsing: fixed choices are checked before a command runs, and
/// a positional is read by its declaration, whatever its name shows.
@Suite struct ValueDomainTests {
    typealias Spec = PodcliSpec

    @Test func aValueOutsideAnOptionsChoicesIsAUsageFailureWhileParsing() throws {
        let failure = try #require(Spec.failure(["fetch", "--protection", "secret", "u"]))
        #expect(
            failure.error
                == .invalidChoice(
                    argument: "--protection", value: "secret", choices: ["private", "open"], suggestion: nil))
        #expect(
            failure.message.split(separator: "\n").first
                == "podcli: invalid value 'secret' for '--protection': expected private or open")
        // Also inline, and with the nearest choice suggested for a slip.
        let slip = try #require(Spec.failure(["fetch", "--protection=privte", "u"]))
        #expect(
            slip.error.description
                == "invalid value 'privte' for '--protection': expected private or open (did you mean 'private'?)")
        #expect(Spec.invocation(["fetch", "--protection", "open", "u"])?.arguments[Spec.protection] == "open")
    }

    @Test func aPositionalsChoicesAreCheckedToo() throws {
        let level = Positional("level", help: "How much.", domain: .choices(["off", "mild", "aggressive"]))
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "tool", abstract: "A tool.",
                subcommands: [CommandSpec(name: "skip", abstract: "Skip.", positionals: [level])]),
            version: "1")
        #expect(throws: UsageFailure.self) { try parser.parse(["skip", "mid"]) }
        #expect(throws: UsageFailure.self) { try parser.parse(["skip", "agressive"]) }
        do {
            _ = try parser.parse(["skip", "agressive"])
        } catch {
            #expect(
                error.error.description
                    == "invalid value 'agressive' for '<level>': expected off, mild or aggressive "
                    + "(did you mean 'aggressive'?)")
        }
        guard case .run(let invocation) = try parser.parse(["skip", "mild"]) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(invocation.arguments[level] == "mild")
        let help = try parser.parse(["skip", "--help"])
        guard case .help(let text) = help else {
            Issue.record("expected help")
            return
        }
        #expect(text.contains("<level>                 How much. (one of: off, mild, aggressive)"))
    }

    /// Two positionals both shown as `<time>` (a name is what help shows) keep their own values.
    @Test func positionalsAreReadByTheirDeclarationNotTheirName() throws {
        let from = Positional("time", help: "Where to start.")
        let to = Positional("time", help: "Where to stop.", isOptional: true)
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "tool", abstract: "A tool.",
                subcommands: [CommandSpec(name: "cut", abstract: "Cut.", positionals: [from, to])]),
            version: "1")
        guard case .run(let invocation) = try parser.parse(["cut", "1:00", "2:00"]) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(invocation.arguments[from] == "1:00")
        #expect(invocation.arguments[to] == "2:00")
    }
}
