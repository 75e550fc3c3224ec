import AudioFormats
import FoundationEssentials
import Strings

/// Turns a server's idea of a file name into one that is safe in an episode directory.
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

    /// Keeps only the last path component, drops control characters and leading dots (no hidden
    /// files, no `..`), and bounds the length while keeping the extension.
    static func sanitize(_ raw: String) -> String {
        let lastComponent = raw.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var name = String(
            lastComponent.unicodeScalars.filter { scalar in
                !(scalar.properties.generalCategory == .control || scalar == "\u{7F}")
            }.map(Character.init))
        name = name.trimmingWhitespace()
        while name.hasPrefix(".") { name.removeFirst() }
        if name.hasSuffix(".part") { name.removeLast(5) }
        guard name.utf8.count > maxLength else { return name }
        let dot = name.lastIndex(of: ".")
        let ext = dot.map { String(name[$0...]) }.flatMap { $0.utf8.count <= 10 ? $0 : nil } ?? ""
        var stem = String(name[..<(ext.isEmpty ? name.endIndex : dot!)])
        while stem.utf8.count + ext.utf8.count > maxLength { stem.removeLast() }
        return stem + ext
    }
}
