import Foundation
import TestSupport
import Testing

/// What the podcli binary links.
@Suite struct LinkageTests {
    /// Modules that load libFoundation.so, and with it libFoundationInternationalization.so and
    /// ICU's data: about 6.5 MB of resident memory that podcli does without.
    static let heavyModules: Set<Substring> = [
        "Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    ]

    /// Read from the sources, not the binary: an incremental debug build keeps the link entries of
    /// imports that were removed until the files that had them are compiled again.
    @Test func noModuleOfTheBinaryImportsMoreThanFoundationEssentials() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources").standardized.path
        let files = try #require(FileManager.default.subpaths(atPath: sources)).filter {
            // EmbedSQL runs at build time and is not linked into podcli.
            $0.hasSuffix(".swift") && !$0.hasPrefix("EmbedSQL/")
        }
        var offending: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                // `import Foundation`, `@_exported import Foundation`, `import struct Foundation.Data`.
                let words = line.split(separator: " ").drop { $0.hasPrefix("@") }
                guard words.first == "import", let name = words.last?.split(separator: ".").first else { continue }
                if Self.heavyModules.contains(name) { offending.append("\(file): \(line)") }
            }
        }
        #expect(offending == [])
    }

    /// libgd is loaded when artwork is first made: linked, it would bring some eighty libraries
    /// (HEIF, AVIF, TIFF, X11, ...) into every run, about 10 MB of resident memory.
    @Test func theBinaryDoesNotLinkLibgd() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [try PodcliRunner.locateExecutable().path]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(output.contains("libsqlite3"))
        #expect(!output.contains("libgd"), "\(output)")
    }
}
