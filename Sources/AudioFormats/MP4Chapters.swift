import Chapters

/// The chapters of an MP4 / M4A file, from either of the two places writers put them: the
/// QuickTime chapter track (a text track that an audio track names in `tref/chap`, one sample
/// per chapter: its time is the chapter's start, its text the title), which Apple's players
/// read, and Nero's `moov/udta/chpl` (starts in 100 ns units, titles of at most 255 bytes).
/// ffmpeg writes both into an M4A (`-movflags disable_chpl` leaves out the second).
enum MP4Chapters {
    /// Of the first `moov`: the chapter track's chapters, else `chpl`'s, and what was broken.
    static func read(in source: some ByteSource) -> (chapters: [Chapter], problems: [ChapterProblem]) {
        guard let movie = MP4Box.children(in: source, from: 0, to: source.size).first(where: { $0.type == "moov" })
        else { return ([], []) }
        var problems: [ChapterProblem] = []
        do {
            let chapters = try textTrack(movie, in: source)
            if !chapters.isEmpty { return (chapters, problems) }
        } catch {
            problems.append(error)
        }
        do {
            let chapters = try nero(movie, in: source)
            if !chapters.isEmpty { return (chapters, problems) }
        } catch {
            problems.append(error)
        }
        return ([], problems)
    }

    /// `chpl`: version and flags, four reserved bytes in version 1, a one-byte count, then per
    /// chapter an 8-byte start and a title of one length byte and that many bytes of UTF-8 (as
    /// ffmpeg reads it; mp4v2's wider count ends in the same byte).
    static func nero(_ movie: MP4Box, in source: some ByteSource) throws(ChapterProblem) -> [Chapter] {
        guard let box = movie.descendant(["udta", "chpl"], in: source) else { return [] }
        let bytes = box.content(in: source, limit: 1 << 20)
        guard bytes.count == box.contentLength else {
            throw ChapterProblem(.neroChapters, "it runs past the end of the file")
        }
        var index = bytes.first == 0 ? 4 : 8
        guard index < bytes.count else { throw ChapterProblem(.neroChapters, "it is too short for its count") }
        let count = Int(bytes[index])
        index += 1
        var chapters: [Chapter] = []
        for _ in 0..<count {
            guard index + 9 <= bytes.count, index + 9 + Int(bytes[index + 8]) <= bytes.count else {
                throw ChapterProblem(.neroChapters, "it says \(count) chapters and holds \(chapters.count)")
            }
            let start = bytes[index..<(index + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let length = Int(bytes[index + 8])
            let title = String(decoding: bytes[(index + 9)..<(index + 9 + length)], as: UTF8.self)
            chapters.append(Chapter(start: Double(start) / 10_000_000, title: title.isEmpty ? nil : title))
            index += 9 + length
        }
        return chapters
    }

    /// The QuickTime chapter track: its samples found through the sample table (`stts` for the
    /// times, `stsz`, `stsc` and `stco`/`co64` for where they lie); each is a 16-bit length and
    /// that much text (UTF-8, or UTF-16 after a byte-order mark).
    static func textTrack(_ movie: MP4Box, in source: some ByteSource) throws(ChapterProblem) -> [Chapter] {
        let tracks = movie.children(in: source).filter { $0.type == "trak" }
        let referenced = tracks.lazy.compactMap { $0.descendant(["tref", "chap"], in: source) }.first
        guard let referenced else { return [] }
        let ids = Table(referenced, in: source, width: 4, counted: false)
        let track = tracks.first { track in
            numberAfterTimes(track.descendant(["tkhd"], in: source), in: source).map { ids.values.contains(UInt64($0)) }
                ?? false
        }
        guard let track else { return [] }
        func problem(_ reason: String) -> ChapterProblem { ChapterProblem(.quickTimeChapters, reason) }
        guard let timescale = numberAfterTimes(track.descendant(["mdia", "mdhd"], in: source), in: source),
            timescale > 0,
            let table = track.descendant(["mdia", "minf", "stbl"], in: source)
        else { throw problem("it has no time scale or sample table") }
        func box(_ types: String...) -> MP4Box? { table.children(in: source).first { types.contains($0.type) } }
        guard let timesBox = box("stts"), let sizesBox = box("stsz"), let runsBox = box("stsc"),
            let offsetsBox = box("stco", "co64")
        else { throw problem("its sample table is incomplete") }
        let times = Table(timesBox, in: source, width: 8)
        let sizes = Table(sizesBox, in: source, width: 4, skip: 4)
        let runs = Table(runsBox, in: source, width: 12)
        let offsets = Table(
            offsetsBox, in: source, width: offsetsBox.type == "co64" ? 8 : 4,
            fieldWidth: offsetsBox.type == "co64" ? 8 : 4)
        // stsz: a size for every sample, or one for all (then no table follows).
        let constantSize = sizesBox.content(in: source, limit: 8)
        let sampleSize = constantSize.count == 8 ? Int(UInt32(bigEndian: constantSize, at: 4)) : 0
        var tables = [("stts", times), ("stsc", runs), ("stco", offsets)]
        if sampleSize == 0 { tables.append(("stsz", sizes)) }
        for (name, table) in tables {
            if let lie = table.lie { throw problem("its \(name) says \(lie.said) entries and holds \(lie.held)") }
        }
        let sampleCount = sizes.said
        guard sampleCount <= ChapterProblem.maximumChapters else {
            throw problem("more than \(ChapterProblem.maximumChapters) chapters")
        }
        // Each sample's start: stts gives runs of samples of one duration.
        var starts: [UInt64] = []
        var time: UInt64 = 0
        for entry in 0..<times.count where starts.count < sampleCount {
            for _ in 0..<min(Int(times.field(entry, 0)), sampleCount - starts.count) {
                starts.append(time)
                time += times.field(entry, 1)
            }
        }
        guard starts.count == sampleCount else { throw problem("its stts times fewer samples than stsz has") }
        // Where each sample lies: chunk by chunk, each run of stsc giving its chunks' sample count.
        var locations: [(offset: Int, size: Int)] = []
        var runIndex = 0
        for chunk in 0..<offsets.count where locations.count < sampleCount && runs.count > 0 {
            while runIndex + 1 < runs.count && Int(runs.field(runIndex + 1, 0)) <= chunk + 1 { runIndex += 1 }
            var offset = Int(min(offsets.field(chunk, 0), UInt64(Int.max / 2)))
            for _ in 0..<min(Int(runs.field(runIndex, 1)), sampleCount - locations.count) {
                let size = sampleSize > 0 ? sampleSize : Int(sizes.field(locations.count, 0))
                locations.append((offset, size))
                offset += size
            }
        }
        guard locations.count == sampleCount else { throw problem("its chunks hold fewer samples than stsz has") }
        var chapters: [Chapter] = []
        for (location, start) in zip(locations, starts) {
            let wanted = min(location.size, 1 << 16)
            let bytes = source.bytes(at: location.offset, count: wanted)
            guard bytes.count == wanted, wanted >= 2 else { throw problem("a sample runs past the end of the file") }
            let length = Int(bytes[0]) << 8 | Int(bytes[1])
            guard 2 + length <= bytes.count else { throw problem("a sample's text is longer than the sample") }
            let title = text(bytes[2..<(2 + length)])
            chapters.append(Chapter(start: Double(start) / Double(timescale), title: title.isEmpty ? nil : title))
        }
        return chapters
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return ID3Text.decode(bytes, encoding: 1)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `tkhd`'s track ID, or `mdhd`'s time scale: after version and flags, two times of 4 bytes
    /// (8 in version 1).
    private static func numberAfterTimes(_ box: MP4Box?, in source: some ByteSource) -> Int? {
        guard let bytes = box?.content(in: source, limit: 24) else { return nil }
        let at = bytes.first == 1 ? 20 : 12
        return bytes.count >= at + 4 ? Int(UInt32(bigEndian: bytes, at: at)) : nil
    }

    /// A table of big-endian numbers in a box: version and flags, `skip` more bytes, an entry
    /// count, then entries of `width` bytes (fields of 4 bytes, or one of 8). A count the box cannot
    /// hold is a lie, kept to be told; at most `ChapterProblem.maximumChapters` entries are read.
    private struct Table {
        let values: [UInt64]
        let fieldsPerEntry: Int
        /// The entries read.
        let count: Int
        /// The entries the box says it has.
        let said: Int
        var lie: (said: Int, held: Int)?

        /// `counted: false` for a box of entries alone (`tref/chap`'s track IDs).
        init(
            _ box: MP4Box, in source: some ByteSource, width: Int, fieldWidth: Int = 4, skip: Int = 0,
            counted: Bool = true
        ) {
            fieldsPerEntry = width / fieldWidth
            let tableStart = counted ? 8 + skip : 0
            let head = box.content(in: source, limit: tableStart)
            let room = max(0, box.contentLength - tableStart) / width
            said = counted ? (head.count == tableStart ? Int(UInt32(bigEndian: head, at: 4 + skip)) : 0) : room
            // A table far larger than any chapter track is not read whole: whoever uses it judges.
            let wanted = min(said, room, ChapterProblem.maximumChapters + 1)
            let bytes = source.bytes(at: box.contentStart + tableStart, count: wanted * width)
            count = bytes.count / width
            if said > room { lie = (said, room) }
            values = stride(from: 0, to: count * width, by: fieldWidth).map { at in
                bytes[at..<(at + fieldWidth)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
        }

        /// Field `field` of entry `entry`.
        func field(_ entry: Int, _ field: Int) -> UInt64 { values[entry * fieldsPerEntry + field] }
    }
}
