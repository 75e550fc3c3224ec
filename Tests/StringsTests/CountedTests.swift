import Strings
import Testing

@Suite struct CountedTests {
    @Test func oneIsSingularAndEveryOtherCountPlural() {
        #expect(Counted.noun(1, "file") == "1 file")
        #expect(Counted.noun(0, "file") == "0 files")
        #expect(Counted.noun(2, "byte") == "2 bytes")
        #expect("1 file " + Counted.agreeing(with: 1, "differs", "differ") == "1 file differs")
        #expect("3 files " + Counted.agreeing(with: 3, "differs", "differ") == "3 files differ")
    }
}
