import Foundation
import TestSupport
import Testing
import Transcripts

struct TranscriptFormatTests {
    @Test func mediaTypesNameTheFormats() {
        let cases: [(String, TranscriptFormat?)] = [
            ("application/json", .json), ("text/vtt", .webVTT), ("Text/VTT; charset=utf-8", .webVTT),
            ("application/x-subrip", .srt), ("application/srt", .srt), ("text/srt", .srt),
            ("text/html", .html), ("text/plain; charset=\"windows-1252\"", .text),
            ("audio/mpeg", nil), ("application/pdf", nil), ("", nil), ("text/vtt2", nil),
        ]
        for (type, format) in cases { #expect(TranscriptFormat(mediaType: type) == format, "\(type)") }
    }

    /// JSON, then WebVTT, then SRT, then HTML, then text, whatever order the feed lists them in;
    /// the first of a format when two share it; none when podcli reads none.
    @Test func theMostStructuredOfferIsPreferred() {
        typealias Offer = (url: String, type: String)
        func preferred(_ offers: [Offer]) -> String? {
            TranscriptFormat.preferred(of: offers, mediaType: \.type)?.offer.url
        }
        let all: [Offer] = [
            ("t.txt", "text/plain"), ("t.html", "text/html"), ("t.srt", "application/x-subrip"),
            ("t.vtt", "text/vtt"), ("t.json", "application/json"), ("t.pdf", "application/pdf"),
        ]
        #expect(preferred(all) == "t.json")
        #expect(preferred(all.filter { $0.url != "t.json" }) == "t.vtt")
        #expect(preferred(all.filter { !["t.json", "t.vtt"].contains($0.url) }) == "t.srt")
        #expect(preferred([("t.txt", "text/plain"), ("t.html", "text/html")]) == "t.html")
        #expect(preferred([("a.srt", "text/srt"), ("b.srt", "application/srt")]) == "a.srt")
        #expect(preferred([("t.pdf", "application/pdf")]) == nil)
        #expect(TranscriptFormat.allCases.sorted() == [.json, .webVTT, .srt, .html, .text])
    }

    static let feeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/feeds").standardized
    static let corpusPresent = FileManager.default.fileExists(atPath: feeds.appendingPathComponent("SOURCES.tsv").path)

    /// The corpus has no transcript files, but its feeds offer transcripts: every type they offer
    /// is one podcli reads.
    @Test(.requires(corpusPresent, "../shared/corpus/feeds is not present"))
    func everyTranscriptTypeTheCorpusFeedsOfferIsRead() throws {
        var types: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.feeds.path) where file.hasSuffix(".xml") {
            let text = try String(contentsOf: Self.feeds.appendingPathComponent(file), encoding: .isoLatin1)
            for match in text.matches(of: #/<podcast:transcript\b[^>]*\btype="([^"]*)"/#) {
                types.insert(String(match.1))
            }
        }
        #expect(!types.isEmpty)
        for type in types { #expect(TranscriptFormat(mediaType: type) != nil, "\(type)") }
    }
}
