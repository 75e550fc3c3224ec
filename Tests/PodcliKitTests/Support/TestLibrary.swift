import Downloads
import EpisodeStore
import Foundation
import TestSupport

/// A test's own world, in-process: a real library (SQLite file and episode directories) in a
/// temporary directory, and a folder of its own on the shared loopback fault server, where it
/// serves its feeds and episodes.
struct TestLibrary {
    let home: TemporaryDirectory
    let server: FaultServer
    let folder: String
    /// Where the served files live (`/files/<folder>/NAME` on the server).
    let served: URL
    /// The test thread's connection.
    let library: Library

    init() throws {
        home = try TemporaryDirectory(prefix: "podcli-kit")
        server = try FaultServer.shared()
        folder = "kit-\(UUID().uuidString)"
        served = try server.makeDirectory(folder)
        library = try Library(directory: home.path)
    }

    /// The data directory.
    var directory: String { library.directory }

    /// The server path of `name` in this test's folder.
    func path(_ name: String) -> String { "/files/\(folder)/\(name)" }

    func url(_ name: String) -> String { server.url(path(name)) }

    /// Writes `data` as `name` in the test's folder and returns its URL. A rewrite moves the
    /// modification time on, so the ETag and Last-Modified change even when the size does not.
    @discardableResult
    func serve(_ name: String, _ data: Data) throws -> String {
        let file = served.appendingPathComponent(name)
        let previous = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]) as? Date
        try data.write(to: file)
        if let previous {
            let next = max(Date(), previous.addingTimeInterval(2)).addingTimeInterval(1)
            try FileManager.default.setAttributes([.modificationDate: next], ofItemAtPath: file.path)
        }
        return url(name)
    }

    @discardableResult
    func serve(_ name: String, _ text: String) throws -> String { try serve(name, Data(text.utf8)) }

    /// Stops serving `name`: the server answers 404.
    func withdraw(_ name: String) throws { try FileManager.default.removeItem(at: served.appendingPathComponent(name)) }

    /// The GET requests for `name` (with any query) in this test's folder, in order.
    func gets(_ name: String) throws -> [RequestRecord] {
        try server.stats(pathPrefix: path(name)).filter {
            $0.method == "GET" && ($0.path == path(name) || $0.path.hasPrefix(path(name) + "?"))
        }
    }

    /// The episode titled `title`.
    func episode(_ title: String) throws -> Episode {
        guard let episode = try library.episodes().first(where: { $0.title == title }) else {
            throw TestSupportError("no episode titled '\(title)'")
        }
        return episode
    }

    /// The titles of the episodes with a recorded file, newest first.
    func downloaded() throws -> [String] {
        try library.episodes().filter { try !library.files(of: $0).isEmpty }
            .sorted { ($0.sortDate, -$0.id) > ($1.sortDate, -$1.id) }.map(\.title)
    }

    /// The names in an episode's directory.
    func files(of episode: Episode) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: library.directory(of: episode))) ?? []).sorted()
    }

    /// The `.part` files of the library, by episode title, with their sizes.
    func partialFiles() throws -> [String: Int] {
        var sizes: [String: Int] = [:]
        for episode in try library.episodes() {
            for name in files(of: episode) where name.hasSuffix(Library.partialSuffix) {
                let path = library.directory(of: episode) + "/" + name
                sizes[episode.title] = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            }
        }
        return sizes
    }

    /// The bytes of the recorded file of `episode`.
    func recordedBytes(of episode: Episode) throws -> Data {
        guard let file = try library.files(of: episode).first else {
            throw TestSupportError("#\(episode.id) \(episode.title) has no recorded file")
        }
        return try Data(contentsOf: URL(fileURLWithPath: library.path(of: file)))
    }

    /// podcli's policy, with retries that wait a few milliseconds rather than seconds.
    static func policy(attempts: Int = 5) -> DownloadPolicy {
        var policy = DownloadPolicy(userAgent: "podcli-tests")
        policy.maxAttempts = attempts
        policy.baseDelay = 0.02
        policy.maxDelay = 0.1
        return policy
    }
}

/// Bytes that pass for MP3 audio (an ID3v2 header, then noise), the same for the same seed.
enum AudioBytes {
    static func make(_ size: Int, seed: UInt64 = 1) -> Data {
        var data = Data("ID3\u{4}\0\0\0\0\0\0".utf8)
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        while data.count < size {
            // SplitMix64: cheap, and different bytes for each seed.
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            mixed ^= mixed >> 31
            withUnsafeBytes(of: mixed) { data.append(contentsOf: $0.prefix(size - data.count)) }
        }
        return data
    }
}
