import Arguments
import Testing

/// The three lines `main` prints to stderr for a usage mistake.
@Suite struct UsageErrorTests {
    typealias Spec = PodcliSpec

    @Test func unknownOptionWithASuggestion() {
        #expect(
            Spec.failure(["list", "--jsno"])?.message == """
                podcli: unknown option '--jsno' (did you mean '--json'?)
                Usage: podcli list [<options>]
                See 'podcli list --help' for more information.
                """)
    }

    @Test func unknownOptionWithoutASuggestion() {
        #expect(
            Spec.failure(["fetch", "u", "--verbose"])?.message == """
                podcli: unknown option '--verbose'
                Usage: podcli fetch [<options>] <url>
                See 'podcli fetch --help' for more information.
                """)
    }

    @Test func suggestsGlobalOptionsAndForgivesASingleDash() {
        #expect(
            Spec.failure(["list", "--hom", "/h"])?.error == .unknownOption("--hom", suggestion: "--home"))
        #expect(
            Spec.failure(["list", "-json"])?.error == .unknownOption("-json", suggestion: "--json"))
    }

    @Test func suggestsNothingForShortNonsense() {
        // `js` is two edits from `json`: more than half its length.
        #expect(Spec.failure(["list", "--js"])?.error == .unknownOption("--js", suggestion: nil))
        #expect(Spec.failure(["x"])?.error == .unknownCommand("x", suggestion: nil))
    }

    @Test func missingArgument() {
        #expect(
            Spec.failure(["fetch", "--json"])?.message == """
                podcli: missing expected argument '<url>'
                Usage: podcli fetch [<options>] <url>
                See 'podcli fetch --help' for more information.
                """)
    }

    @Test func unknownCommandWithASuggestion() {
        #expect(
            Spec.failure(["queue", "ad", "7"])?.message == """
                podcli: unknown command 'ad' (did you mean 'add'?)
                Usage: podcli queue <subcommand>
                See 'podcli queue --help' for more information.
                """)
        #expect(Spec.failure(["fecth", "u"])?.error == .unknownCommand("fecth", suggestion: "fetch"))
    }

    @Test func missingCommandAtTheRoot() {
        #expect(
            Spec.failure(["--quiet"])?.message == """
                podcli: missing subcommand
                Usage: podcli <subcommand>
                See 'podcli --help' for more information.
                """)
    }

    @Test func aCommandsOwnErrorGetsTheSameShape() throws {
        let invocation = try #require(Spec.invocation(["list", "--json", "--limit", "3"]))
        let failure = Spec.parser.usageFailure(
            .conflicting("--json cannot be combined with --limit."), for: invocation)
        #expect(
            failure.message == """
                podcli: --json cannot be combined with --limit.
                Usage: podcli list [<options>]
                See 'podcli list --help' for more information.
                """)
    }

    @Test func describesTheRemainingErrors() {
        #expect(
            UsageError.missingValue(forOption: "--limit").description
                == "missing value for option '--limit'")
        #expect(
            UsageError.unexpectedValue(forFlag: "--json").description
                == "the flag '--json' does not take a value")
        #expect(UsageError.unexpectedArgument("x").description == "unexpected argument 'x'")
        #expect(
            UsageError.invalidValue(option: "--limit", value: "ten", expected: "a number").description
                == "invalid value 'ten' for '--limit': expected a number")
    }
}
