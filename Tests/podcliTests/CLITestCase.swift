import Foundation
import TestSupport

/// A podcli process world for one test: its own data directory, the shared loopback server, and
/// source files at URLs of its own.
struct CLITestCase {
    let server: FaultServer
    let home: TemporaryDirectory
    let podcli: PodcliRunner

    init() throws {
        server = try FaultServer.shared()
        home = try TemporaryDirectory(prefix: "podcli-cli")
        podcli = try PodcliRunner()
    }

    /// Runs `podcli --home <home> args...`.
    func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws
        -> ProcessResult
    {
        try podcli.run(["--home", home.path] + arguments, environment: environment, timeout: timeout)
    }

    /// Serves `data` (default: audio-looking bytes of `size`) as `name` at a URL of this test's own.
    func source(_ name: String, size: Int = 200_000, data: Data? = nil) throws -> (url: String, data: Data) {
        let folder = "cli-\(UUID().uuidString)"
        let content = data ?? CLITestCase.audioBytes(size)
        try content.write(to: try server.makeDirectory(folder).appendingPathComponent(name))
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
        return (server.url("/files/\(folder)/\(encoded)"), content)
    }

    /// An ID3v2 tag, then MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, stereo) of silence
    /// whose unused bytes are random (no two files alike), cut at `size`: audio that decodes, as
    /// a download's measurement decodes it, 0.026 s a frame (417 bytes).
    static func audioBytes(_ size: Int) -> Data {
        var data = Data("ID3\u{4}\0\0\0\0\0\0".utf8)
        var generator = SystemRandomNumberGenerator()
        while data.count < size {
            // The header, then 32 bytes of side information saying the frame holds no sound (so
            // the decoder reads none of the rest: ancillary data).
            data.append(contentsOf: [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 32))
            data.append(contentsOf: (0..<381).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        return data.prefix(size)
    }

    /// `podcli show ID --json`, decoded.
    func show(_ id: String) throws -> [String: Any] {
        let result = try run(["show", id, "--json"])
        guard result.status == 0 else { throw TestSupportError("show \(id) failed: \(result)") }
        return try JSONSerialization.jsonObject(with: result.stdoutData) as! [String: Any]
    }

    /// The names in the episode directory of `uuid`.
    func episodeFiles(_ uuid: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: home.path + "/episodes/" + uuid).sorted()) ?? []
    }
}
