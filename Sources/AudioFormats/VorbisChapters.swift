import Chapters

/// Chapters in Vorbis comments (the Vorbis chapter extension, as ffmpeg writes it into Opus and
/// as taggers do into Vorbis and FLAC): `CHAPTER001=HH:MM:SS.mmm`, `CHAPTER001NAME=` the title,
/// `CHAPTER001URL=` its URL, numbered from 000 or 001. Keys are case-insensitive. Found in
/// OpusTags, Vorbis's comment header, or the VORBIS_COMMENT block of FLAC (native or in Ogg).
enum VorbisChapters {
    /// A chapter comment longer than this is not read (a title, a URL: never that long).
    static let maximumCommentBytes = 64 * 1024
    private static let key = Array("CHAPTER".utf8)

    /// - Throws: `ChapterProblem` (`.comments`) for a time that is not one, a name or URL with
    ///   no time, more than `ChapterProblem.maximumChapters`.
    static func read(in source: some ByteSource) throws(ChapterProblem) -> [Chapter] {
        if source.bytes(at: 0, count: 4).elementsEqual("fLaC".utf8) {
            guard let block = FLACMetadata.blocks(in: source).first(where: { $0.type == 4 }) else { return [] }
            return try chapters(in: VorbisComments(bytes: source, start: block.offset))
        }
        let packets = OggPacket.leading(8, in: source)
        guard let first = packets.first, packets.count > 1 else { return [] }
        let signature = first.bytes(at: 0, count: 8, in: source)
        if signature.elementsEqual("OpusHead".utf8) {
            return try chapters(in: VorbisComments(bytes: PacketBytes(packet: packets[1], source: source), start: 8))
        }
        if signature.starts(with: [0x01] + Array("vorbis".utf8)) {
            return try chapters(in: VorbisComments(bytes: PacketBytes(packet: packets[1], source: source), start: 7))
        }
        if signature.starts(with: [0x7F] + Array("FLAC".utf8)) {
            // Each header packet after the first is a metadata block with its 4-byte header.
            for packet in packets.dropFirst()
            where packet.bytes(at: 0, count: 1, in: source).first.map({ $0 & 0x7F }) == 4 {
                return try chapters(in: VorbisComments(bytes: PacketBytes(packet: packet, source: source), start: 4))
            }
        }
        return []
    }

    private struct Entry {
        var time: String?
        var name: String?
        var url: String?
    }

    private static func chapters(in comments: VorbisComments<some ByteSource>) throws(ChapterProblem) -> [Chapter] {
        var entries: [Int: Entry] = [:]
        var keys: [Int: String] = [:]
        try comments.visit { (start, length) throws(ChapterProblem) in
            guard length <= maximumCommentBytes, comments.hasKey(key, at: start, length: length) else { return true }
            let comment = comments.bytes.bytes(at: start, count: length)
            guard let equals = comment.firstIndex(of: UInt8(ascii: "=")) else { return true }
            let name = comment[key.count..<equals].map(VorbisComments<MemoryBytes>.uppercased)
            let digits = name.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !digits.isEmpty, digits.count <= 6, let number = Int(String(decoding: digits, as: UTF8.self)) else {
                return true
            }
            let value = String(decoding: comment[(equals + 1)...], as: UTF8.self)
            var entry = entries[number] ?? Entry()
            switch String(decoding: name.dropFirst(digits.count), as: UTF8.self) {
            case "": entry.time = value
            case "NAME": entry.name = value
            case "URL": entry.url = value
            default: return true
            }
            keys[number] = "CHAPTER" + String(decoding: digits, as: UTF8.self)
            entries[number] = entry
            guard entries.count <= ChapterProblem.maximumChapters else {
                throw ChapterProblem(.comments, "more than \(ChapterProblem.maximumChapters) chapters")
            }
            return true
        }
        return try entries.keys.sorted().map { (number) throws(ChapterProblem) in
            let entry = entries[number]!
            guard let time = entry.time else {
                throw ChapterProblem(.comments, "\(keys[number]!) has a name and no time")
            }
            guard let start = seconds(time) else {
                throw ChapterProblem(.comments, "\(keys[number]!) is not a time ('\(time.prefix(40))')")
            }
            return Chapter(
                start: start, title: entry.name.flatMap { $0.isEmpty ? nil : $0 },
                url: entry.url.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// `HH:MM:SS` with an optional fraction (`.mmm`), hours of one to six digits; nil for
    /// anything else.
    static func seconds(_ text: String) -> Double? {
        func digits(_ part: Substring, _ widths: ClosedRange<Int>) -> Int? {
            guard widths.contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
            return Int(part)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let secondParts = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let hours = digits(parts[0], 1...6), let minutes = digits(parts[1], 2...2), minutes < 60,
            let whole = digits(secondParts[0], 2...2), whole < 60
        else { return nil }
        var fraction = 0.0
        if secondParts.count == 2 {
            guard let value = digits(secondParts[1], 1...9) else { return nil }
            fraction = Double(value) / (0..<secondParts[1].utf8.count).reduce(1.0) { power, _ in power * 10 }
        }
        return Double(hours * 3600 + minutes * 60 + whole) + fraction
    }
}
