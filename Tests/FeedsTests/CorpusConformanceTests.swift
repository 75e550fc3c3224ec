import Foundation
import TestSupport
import Testing

@testable import Feeds

/// The real feeds of `../shared/corpus/feeds` (see its SOURCES.tsv) against what a person wrote
/// down from reading each one (CorpusExpectationsA/B.swift). Runs whenever the folder is present
/// (CI always has it).
@Suite struct CorpusConformanceTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/feeds").standardized

    static let present = FileManager.default.fileExists(atPath: corpus.appendingPathComponent("SOURCES.tsv").path)
    static let expectations = present ? corpusExpectationsA + corpusExpectationsB : []

    @Test(.requires(present, "../shared/corpus/feeds is not present"))
    func everyCorpusFeedHasExpectations() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter {
            $0 != "SOURCES.tsv"
        }
        #expect(Set(files) == Set(Self.expectations.map(\.file)))
    }

    @Test(.requires(present, "../shared/corpus/feeds is not present"), arguments: expectations)
    func feedMatchesExpectations(_ expected: FeedExpectation) throws {
        let parser = FeedParser(baseURL: "https://feeds.example/corpus/\(expected.file)")
        let path = Self.corpus.appendingPathComponent(expected.file).path
        switch expected.outcome {
        case .fails:
            #expect(throws: FeedError.self) { try parser.parse(contentsOf: path) }
        case .parses(let count):
            let feed = try parser.parse(contentsOf: path)
            #expect(feed.items.count == count)
            if let title = expected.title { #expect(feed.title == title) }
            for sample in expected.samples {
                guard sample.index < feed.items.count else {
                    Issue.record("item \(sample.index) is missing")
                    continue
                }
                let item = feed.items[sample.index]
                #expect(item.title == sample.title, "item \(sample.index)")
                #expect(item.guid == sample.guid, "item \(sample.index)")
                #expect(item.enclosure.url == sample.enclosureURL, "item \(sample.index)")
                #expect(item.enclosure.length == sample.length, "item \(sample.index)")
                #expect(item.duration == sample.duration, "item \(sample.index)")
                #expect(item.published.map(Self.iso8601) == sample.published, "item \(sample.index)")
            }
        }
    }

    /// "yyyy-MM-ddTHH:mm:ssZ" for Unix seconds.
    static func iso8601(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
