/// An audio track of an MP4 file as far as playing it goes: its codec, whether it is encrypted,
/// and how far into the file its samples reach.
struct MP4Track {
    /// The handler: `soun` for audio, `vide` for video, ...
    let handler: String
    /// The first sample entry's four-letter code (`mp4a`, `alac`, `Opus`, `enca`, ...).
    let codec: String?
    /// For `mp4a`: the MPEG-4 object type its decoder configuration names (0x40 is AAC).
    let objectType: UInt8?
    /// Protected (`enca`, `drms`, a `sinf` box): DRM, which podcli cannot play.
    let isEncrypted: Bool
    /// The largest chunk offset of the sample table: where the last chunk begins.
    let lastChunkOffset: Int?
    /// The entry counts of the sample table's boxes, by type (`stsd`, `stts`, `stsc`, `stsz`,
    /// `stco`; `stz2` and `co64` under the names of the boxes they stand for).
    let tableCounts: [String: TableCount]

    /// How many entries a sample table box says it has, and whether it holds that many.
    struct TableCount: Equatable {
        let count: Int
        let fits: Bool
    }

    init(_ trak: MP4Box, in source: some ByteSource) {
        let handlerBox = trak.descendant(["mdia", "hdlr"], in: source)
        let handlerBytes = handlerBox.map { source.bytes(at: $0.contentStart + 8, count: 4) } ?? []
        handler = String(decoding: handlerBytes, as: UTF8.self)
        let sampleTable = trak.descendant(["mdia", "minf", "stbl"], in: source)
        let entry = sampleTable?.descendant(["stsd"], in: source)?.children(in: source, skipping: 8).first
        codec = entry?.type
        let entryChildren = entry.map { Self.sampleEntryChildren($0, in: source) } ?? []
        let wave = entryChildren.first { $0.type == "wave" }?.children(in: source) ?? []
        isEncrypted =
            codec == "enca" || codec == "drms" || codec == "drmi" || entryChildren.contains { $0.type == "sinf" }
        objectType = (entryChildren + wave).first { $0.type == "esds" }.flatMap {
            Self.objectType(esds: $0.content(in: source, limit: 256))
        }
        let offsets = sampleTable.flatMap { table in
            table.children(in: source).first { $0.type == "stco" || $0.type == "co64" }
        }
        lastChunkOffset = offsets.flatMap { Self.lastOffset(of: $0, in: source) }
        var counts: [String: TableCount] = [:]
        for box in sampleTable?.children(in: source) ?? [] {
            if let (name, count) = Self.tableCount(of: box, in: source), counts[name] == nil { counts[name] = count }
        }
        tableCounts = counts
    }

    /// The count of a sample table box (ISO 14496-12, 8.5-8.7): a full box's version and flags,
    /// (for `stsz` its constant sample size, for `stz2` three reserved bytes and the field size),
    /// the entry count, then the entries, whose size the type says.
    private static func tableCount(of box: MP4Box, in source: some ByteSource) -> (String, TableCount)? {
        let header = box.content(in: source, limit: 12)
        func count(at offset: Int) -> Int? {
            header.count >= offset + 4 ? Int(UInt32(bigEndian: header, at: offset)) : nil
        }
        let name: String
        let entries: Int
        let bitsPerEntry: Int
        let tableStart: Int
        switch box.type {
        case "stsd", "stts", "stco", "co64", "stsc":
            guard let value = count(at: 4) else { return nil }
            name = box.type == "co64" ? "stco" : box.type
            entries = value
            // A sample description is a box: at least its 8-byte header.
            bitsPerEntry = 8 * ["stsd": 8, "stts": 8, "stco": 4, "co64": 8, "stsc": 12][box.type]!
            tableStart = 8
        case "stsz":
            guard let size = count(at: 4), let value = count(at: 8) else { return nil }
            name = "stsz"
            entries = value
            bitsPerEntry = size == 0 ? 32 : 0  // a constant size: no table
            tableStart = 12
        case "stz2":
            guard let value = count(at: 8) else { return nil }
            name = "stsz"
            entries = value
            bitsPerEntry = Int(header[7])
            tableStart = 12
        default:
            return nil
        }
        let room = max(0, box.contentLength - tableStart)
        let (bits, overflow) = entries.multipliedReportingOverflow(by: bitsPerEntry)
        return (name, TableCount(count: entries, fits: !overflow && (bits + 7) / 8 <= room))
    }

    /// An audio sample entry's child boxes, after its fields: 28 bytes, and 16 or 36 more for
    /// QuickTime's sound description versions 1 and 2.
    private static func sampleEntryChildren(_ entry: MP4Box, in source: some ByteSource) -> [MP4Box] {
        let version = source.bytes(at: entry.contentStart + 8, count: 2)
        let extra = version == [0, 1] ? 16 : version == [0, 2] ? 36 : 0
        return entry.children(in: source, skipping: 28 + extra)
    }

    /// The objectTypeIndication of an `esds` box's DecoderConfigDescriptor (ISO 14496-1, 7.2.6).
    static func objectType(esds bytes: [UInt8]) -> UInt8? {
        var index = 4  // version and flags
        func descriptor(_ tag: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == tag else { return false }
            index += 1
            // The length: up to four bytes of seven bits, the top bit saying another follows.
            for _ in 0..<4 {
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                index += 1
                if byte & 0x80 == 0 { break }
            }
            return true
        }
        guard descriptor(0x03), index + 3 <= bytes.count else { return nil }
        let flags = bytes[index + 2]
        index += 3
        if flags & 0x80 != 0 { index += 2 }
        if flags & 0x40 != 0 {
            guard index < bytes.count else { return nil }
            index += 1 + Int(bytes[index])
        }
        if flags & 0x20 != 0 { index += 2 }
        guard descriptor(0x04), index < bytes.count else { return nil }
        return bytes[index]
    }

    /// The largest entry of an `stco` (32-bit) or `co64` (64-bit) chunk offset table.
    private static func lastOffset(of box: MP4Box, in source: some ByteSource) -> Int? {
        let header = box.content(in: source, limit: 8)
        guard header.count == 8 else { return nil }
        let count = Int(UInt32(bigEndian: header, at: 4))
        let width = box.type == "co64" ? 8 : 4
        guard count > 0, count <= (box.contentLength - 8) / width else { return nil }
        // Offsets grow in a file written front to back, but nothing says so: look at them all,
        // a block at a time.
        var largest = 0
        var index = 0
        while index < count {
            let batch = min(count - index, 16_384)
            let bytes = source.bytes(at: box.contentStart + 8 + index * width, count: batch * width)
            guard bytes.count == batch * width else { return nil }
            for entry in 0..<batch {
                let value = bytes[(entry * width)..<((entry + 1) * width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                largest = max(largest, Int(truncatingIfNeeded: min(value, UInt64(Int.max / 2))))
            }
            index += batch
        }
        return largest
    }
}
