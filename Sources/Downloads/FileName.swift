import AudioFormats
import FoundationEssentials
import Strings

/// Turns a server's idea of a file name into one that is safe in an episode directory.
///
/// A downloaded name never collides with the names podcli keeps beside the audio
/// (`Library.isOwnFile`): it is never hidden (podcli's artwork, temporary files and what comes
/// later all begin with a dot), never ends in `.part` (a partial download), and is never
/// `artwork.jpg` (where podcli 0.1 cached the artwork) nor `transcript.json` (the transcript).
enum FileName {
    /// Longest name kept, in UTF-8 bytes: well under NAME_MAX (255) with room for ".part".
    static let maxLength = 120
    static let fallback = "episode.mp3"

    /// The name for a download: from Content-Disposition if given, else from the final URL's last
    /// path component.
    static func forDownload(disposition: String?, url: String, mediaType: String?) -> String {
        let candidate = disposition ?? URLComponents(string: url)?.path.split(separator: "/").last.map(String.init)
        var name = sanitize(candidate?.removingPercentEscapes() ?? candidate ?? "")
        if name.isEmpty { return fallback }
        if !name.contains("."), let container = mediaType.flatMap(AudioContainer.init(mediaType:)) {
            name += "." + container.fileExtension
        }
        return name
    }

    /// Names of podcli's own that a server's name is kept away from (compared without case).
    static let reserved: Set<String> = ["artwork.jpg", "transcript.json"]

    /// Keeps only the last path component, drops control characters and leading dots (no hidden
    /// files, no `..`), every `.part` and dot at the end, keeps away from `reserved` names, and bounds
    /// the length while keeping the extension.
    static func sanitize(_ raw: String) -> String {
        let lastComponent = raw.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var name = String(
            lastComponent.unicodeScalars.filter { scalar in
                !(scalar.properties.generalCategory == .control || scalar == "\u{7F}")
            }.map(Character.init))
        // Repeated until nothing changes: "x.part. .part" must not come out as "x.part".
        var previous = ""
        while name != previous {
            previous = name
            name = name.trimmingWhitespace()
            while name.hasPrefix(".") { name.removeFirst() }
            while name.lowercased().hasSuffix(".part") { name.removeLast(5) }
            while name.hasSuffix(".") { name.removeLast() }
        }
        if reserved.contains(name.lowercased()) { name = "audio-" + name }
        guard name.utf8.count > maxLength else { return name }
        let dot = name.lastIndex(of: ".")
        let ext = dot.map { String(name[$0...]) }.flatMap { $0.utf8.count <= 10 ? $0 : nil } ?? ""
        var stem = String(name[..<(ext.isEmpty ? name.endIndex : dot!)])
        while stem.utf8.count + ext.utf8.count > maxLength { stem.removeLast() }
        return stem + ext
    }
}
