import Foundation
import TestSupport
import Testing

@testable import Downloads

/// The real MP3s of `../shared/corpus/audio` (see its SOURCES.tsv), served over loopback: every
/// valid one downloads byte-identical; the empty and 3-byte files are refused as not audio; the
/// other broken ones either download identical or are refused, never recorded half.
/// Runs whenever the corpus folder is present (CI always has it).
@Suite struct CorpusConformanceTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/audio").standardized

    /// (file name, whether SOURCES.tsv marks it broken)
    static let entries: [(String, Bool)] = {
        guard let table = try? String(contentsOf: corpus.appendingPathComponent("SOURCES.tsv"), encoding: .utf8) else {
            return []
        }
        return table.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard let name = fields.first, name.hasSuffix(".mp3") || name.hasSuffix(".mp2") || name.hasSuffix(".mp1")
            else { return nil }
            return (String(name), line.contains("BROKEN"))
        }
    }()

    @Test(.requires(!entries.isEmpty, "../shared/corpus/audio is not present"), arguments: entries)
    func corpusFile(name: String, broken: Bool) throws {
        let server = try FaultServer.shared()
        let work = try TemporaryDirectory(prefix: "podcli-corpus")
        let folder = try server.makeDirectory("corpus-\(UUID().uuidString)")
        let source = Self.corpus.appendingPathComponent(name)
        try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(name))
        let data = try Data(contentsOf: source)
        var policy = DownloadPolicy(userAgent: "podcli/test")
        policy.baseDelay = 0.01
        let request = DownloadRequest(
            url: server.url("/files/\(folder.lastPathComponent)/\(name)"), directory: work.path, fileMode: 0o600)
        do {
            let result = try Downloader(policy: policy).download(request) { _ in }
            #expect(data.count > 3, "a file this short must be refused")
            #expect(try Data(contentsOf: work.appending(result.partialName)) == data)
        } catch let error as DownloadError {
            guard case .notAudio = error else {
                Issue.record("\(name): \(error)")
                return
            }
            #expect(broken, "\(name) is valid audio but was refused")
            #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
        }
    }
}
