/// One box of an ISO base media file (MP4, M4A): its four-letter type and where its header and
/// content lie. Read from the header alone; the content is read only when wanted.
struct MP4Box {
    let type: String
    let offset: Int
    let headerLength: Int
    /// The offset just past the box, as its header says (which may be past the file's end).
    let end: Int

    var contentStart: Int { offset + headerLength }
    var contentLength: Int { end - contentStart }

    /// The box whose header is at `offset`, within a parent ending at `limit`; nil when the
    /// header is cut short or says nonsense (a size smaller than its header).
    init?(in source: some ByteSource, at offset: Int, limit: Int) {
        let header = source.bytes(at: offset, count: 16)
        guard header.count >= 8, offset + 8 <= limit else { return nil }
        let size32 = Int(UInt32(bigEndian: header, at: 0))
        type = String(decoding: header[4..<8].map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        self.offset = offset
        switch size32 {
        case 0:
            // To the end of the enclosing box (the last box of a file).
            headerLength = 8
            end = limit
        case 1:
            guard header.count == 16 else { return nil }
            let size64 = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard size64 >= 16, size64 < UInt64(Int.max / 2) else { return nil }
            headerLength = 16
            end = offset + Int(size64)
        default:
            guard size32 >= 8 else { return nil }
            headerLength = 8
            end = offset + size32
        }
    }

    /// The boxes directly inside `start..<limit` of `source`. Stops at the first box that does
    /// not fit.
    static func children(in source: some ByteSource, from start: Int, to limit: Int) -> [MP4Box] {
        var boxes: [MP4Box] = []
        var offset = start
        while offset + 8 <= limit, let box = MP4Box(in: source, at: offset, limit: limit), box.end <= limit {
            boxes.append(box)
            offset = box.end
        }
        return boxes
    }

    /// The boxes inside this one, after `skip` bytes of its own fields.
    func children(in source: some ByteSource, skipping skip: Int = 0) -> [MP4Box] {
        Self.children(in: source, from: contentStart + skip, to: end)
    }

    /// The first box along `path` below this one (`["mdia", "minf", "stbl"]`).
    func descendant(_ path: [String], in source: some ByteSource) -> MP4Box? {
        var box = self
        for type in path {
            let skip = box.type == "meta" ? box.metaSkip(in: source) : 0
            guard let next = box.children(in: source, skipping: skip).first(where: { $0.type == type })
            else { return nil }
            box = next
        }
        return box
    }

    /// `meta` is a full box in ISO files (version and flags before its children) and a plain one
    /// in some QuickTime files: a child box right after the header tells.
    func metaSkip(in source: some ByteSource) -> Int {
        let head = source.bytes(at: contentStart + 4, count: 4)
        return head.elementsEqual("hdlr".utf8) ? 0 : 4
    }

    /// The box's content, up to `limit` bytes.
    func content(in source: some ByteSource, limit: Int = 1 << 20) -> [UInt8] {
        source.bytes(at: contentStart, count: min(contentLength, limit))
    }
}
