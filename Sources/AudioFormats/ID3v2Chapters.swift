import Chapters

/// The chapters of an ID3v2.3 or v2.4 tag (the ID3v2 Chapter Frame Addendum): a CHAP frame per
/// chapter (an element ID, start and end in milliseconds, then frames of its own: TIT2 the
/// title, WXXX or another W*** frame its URL, APIC its picture, marked `Chapter.imageInFile`),
/// and CTOC frames listing them (flags 0x02 top-level, 0x01 ordered). The chapters of the
/// top-level CTOC come in its order, then every CHAP it does not list (in a child CTOC, or in
/// none), in the tag's order: a chapter is a chapter whether listed or not. Played in order of
/// their starts (`ChapterList`), the CTOC's order only decides between two starting together.
enum ID3v2Chapters {
    /// The largest CHAP or CTOC frame read (its pictures make it large): more is broken.
    static let maximumFrameBytes = 16 << 20

    /// The chapters of the first tag that has any (a file may carry tags back to back).
    /// - Throws: `ChapterProblem` (`.id3`) for a chapter frame cut short by the tag or the file,
    ///   larger than `maximumFrameBytes`, with fields that do not fit, or over the chapter limit.
    static func read(in source: some ByteSource) throws(ChapterProblem) -> [Chapter] {
        var offset = 0
        while let header = ID3v2Header(source.bytes(at: offset, count: ID3v2Header.length)) {
            let chapters = try read(in: source, tagAt: offset, header: header)
            if !chapters.isEmpty { return chapters }
            offset += header.end
        }
        return []
    }

    private struct Entry {
        let id: String
        let chapter: Chapter
    }

    private struct TableOfContents {
        let isTopLevel: Bool
        let children: [String]
    }

    private static func read(in source: some ByteSource, tagAt start: Int, header: ID3v2Header)
        throws(ChapterProblem) -> [Chapter]
    {
        // v2.2 has no chapter frames.
        guard header.majorVersion >= 3, var cursor = ID3TagCursor(tagAt: start, header: header, in: source) else {
            return []
        }
        var entries: [Entry] = []
        var tables: [TableOfContents] = []
        while let frame = ID3Frame(reading: &cursor, version: header.majorVersion) {
            guard frame.id == "CHAP" || frame.id == "CTOC", !frame.isCompressedOrEncrypted else {
                cursor.skip(frame.storedLength)
                continue
            }
            guard frame.storedLength <= maximumFrameBytes else {
                throw ChapterProblem(
                    .id3, "a \(frame.id) frame of \(frame.storedLength) bytes is larger than podcli reads")
            }
            guard let body = frame.body(from: &cursor) else {
                let end = cursor.tagEndsPastFile ? "the file" : "its tag"
                throw ChapterProblem(.id3, "a \(frame.id) frame runs past the end of \(end)")
            }
            if frame.id == "CHAP" {
                entries.append(try chapter(body, version: header.majorVersion))
                guard entries.count <= ChapterProblem.maximumChapters else {
                    throw ChapterProblem(.id3, "more than \(ChapterProblem.maximumChapters) chapters")
                }
            } else {
                tables.append(try tableOfContents(body))
            }
        }
        var order: [Entry] = []
        var placed = Set<String>()
        var byID: [String: Entry] = [:]
        for entry in entries where byID[entry.id] == nil { byID[entry.id] = entry }
        for table in tables where table.isTopLevel {
            for id in table.children {
                if let entry = byID[id], placed.insert(id).inserted { order.append(entry) }
            }
        }
        for entry in entries where placed.insert(entry.id).inserted { order.append(entry) }
        return order.map(\.chapter)
    }

    /// A CHAP frame's body: element ID, start and end times, start and end offsets (ignored),
    /// then its own frames.
    private static func chapter(_ body: [UInt8], version: Int) throws(ChapterProblem) -> Entry {
        let (idEnd, fieldsStart) = ID3Text.terminated(body, from: 0, encoding: 0)
        let id = ID3Text.decode(body[0..<idEnd], encoding: 0)
        guard fieldsStart + 16 <= body.count else {
            throw ChapterProblem(.id3, "CHAP '\(id)' is too short for its times")
        }
        let startMilliseconds = UInt32(bigEndian: body, at: fieldsStart)
        let endMilliseconds = UInt32(bigEndian: body, at: fieldsStart + 4)
        var chapter = Chapter(
            start: Double(startMilliseconds) / 1000,
            end: endMilliseconds > startMilliseconds ? Double(endMilliseconds) / 1000 : nil)
        let frames = MemoryBytes(body)
        var cursor = ID3TagCursor(source: frames, start: fieldsStart + 16, end: body.count, unsynchronised: false)
        while let frame = ID3Frame(reading: &cursor, version: version) {
            guard let inner = frame.body(from: &cursor) else {
                throw ChapterProblem(.id3, "a frame inside CHAP '\(id)' runs past its end")
            }
            guard !frame.isCompressedOrEncrypted else { continue }
            switch frame.id {
            case "TIT2": chapter.title = chapter.title ?? ID3Text.firstValue(ofTextFrame: inner)
            case "APIC": chapter.image = Chapter.imageInFile
            case let url where url.hasPrefix("W"): chapter.url = chapter.url ?? ID3Text.url(ofFrame: url, body: inner)
            default: break
            }
        }
        return Entry(id: id, chapter: chapter)
    }

    /// A CTOC frame's body: element ID, flags (0x02 top-level, 0x01 ordered), the count of
    /// entries, their element IDs, then frames of its own (a title, ignored).
    private static func tableOfContents(_ body: [UInt8]) throws(ChapterProblem) -> TableOfContents {
        var index = ID3Text.terminated(body, from: 0, encoding: 0).next
        guard index + 2 <= body.count else { throw ChapterProblem(.id3, "a CTOC frame is too short for its flags") }
        let flags = body[index]
        let count = Int(body[index + 1])
        index += 2
        var children: [String] = []
        for _ in 0..<count {
            guard index < body.count else {
                throw ChapterProblem(.id3, "a CTOC frame says \(count) entries and holds \(children.count)")
            }
            let (end, next) = ID3Text.terminated(body, from: index, encoding: 0)
            children.append(ID3Text.decode(body[index..<end], encoding: 0))
            index = next
        }
        return TableOfContents(isTopLevel: flags & 0x02 != 0, children: children)
    }
}
