import Arguments
import Testing

@Suite struct ParsedArgumentsTests {
    typealias Spec = PodcliSpec

    private func limit(_ arguments: [String]) throws -> Int? {
        let invocation = try #require(Spec.invocation(arguments))
        return try invocation.arguments.value(Spec.limit, as: "a positive integer") { text in
            Int(text).flatMap { $0 > 0 ? $0 : nil }
        }
    }

    @Test func convertsAValue() throws {
        #expect(try limit(["list", "--limit", "12"]) == 12)
    }

    @Test func givesNilForAnAbsentOptionWithoutDefault() throws {
        #expect(try limit(["list"]) == nil)
    }

    @Test func convertsTheDefaultValue() throws {
        let invocation = try #require(Spec.invocation(["fetch", "u"]))
        let protection = try invocation.arguments.value(Spec.protection, as: "private or open") {
            ["private", "open"].contains($0) ? $0.uppercased() : nil
        }
        #expect(protection == "PRIVATE")
    }

    @Test func rejectsAnInvalidValue() throws {
        let expected = UsageError.invalidValue(
            option: "--limit", value: "-3", expected: "a positive integer")
        #expect(throws: expected) { try limit(["list", "-n", "-3"]) }
    }

    @Test func invalidValueReadsAsAUsageFailure() throws {
        let invocation = try #require(Spec.invocation(["list", "--limit", "ten"]))
        do {
            _ = try invocation.arguments.value(Spec.limit, as: "a positive integer") { Int($0) }
            Issue.record("expected an invalid value")
        } catch {
            #expect(
                Spec.parser.usageFailure(error, for: invocation).message == """
                    podcli: invalid value 'ten' for '--limit': expected a positive integer
                    Usage: podcli list [<options>]
                    See 'podcli list --help' for more information.
                    """)
        }
    }
}
