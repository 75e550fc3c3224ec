import Foundation
import Testing

@testable import Feeds

/// The parse's time budget counts the time libxml2 works, not the time the thread waits.
@Suite struct XMLStreamTests {
    /// Stands for the thread being descheduled mid-parse (a loaded machine, a laptop asleep):
    /// each element waits without working.
    final class Waiting: XMLStreamDelegate {
        func startElement(_ name: XMLName, attributes: XMLAttributes) { usleep(40_000) }
        func endElement() {}
    }

    @Test func timeTheThreadWaitsIsNotCountedAgainstTheBudget() throws {
        let delegate = Waiting()
        let stream = XMLStream(delegate: delegate, budget: .milliseconds(100))
        let document = Array("<rss><channel><item/><item/><item/><item/></channel></rss>".utf8)
        let started = ContinuousClock.now
        document.withUnsafeBytes { stream.feed($0) }
        let result = try stream.finish()
        #expect(ContinuousClock.now - started > .milliseconds(100), "the delegate did not wait")
        #expect(result.rootSeen && result.rootClosed)
    }
}
