/// One packet of an Ogg stream, as the stretches of the file it lies in (a packet may span many
/// pages): its bytes are read only where asked for.
struct OggPacket {
    /// (file offset, length) of each stretch, in order.
    private(set) var spans: [(offset: Int, length: Int)] = []
    private(set) var length = 0

    mutating func append(offset: Int, length: Int) {
        guard length > 0 else { return }
        if let last = spans.last, last.offset + last.length == offset {
            spans[spans.count - 1].length += length
        } else {
            spans.append((offset, length))
        }
        self.length += length
    }

    /// Up to `count` bytes from `start` within the packet.
    func bytes(at start: Int, count: Int, in source: some ByteSource) -> [UInt8] {
        var result: [UInt8] = []
        var skipped = 0
        for span in spans {
            guard result.count < count else { break }
            if start >= skipped + span.length {
                skipped += span.length
                continue
            }
            let from = max(0, start - skipped)
            let take = min(span.length - from, count - result.count)
            let bytes = source.bytes(at: span.offset + from, count: take)
            result += bytes
            if bytes.count < take { break }
            skipped += span.length
        }
        return result
    }

    /// The first `limit` packets of the stream the file's first page belongs to.
    static func leading(_ limit: Int, in source: some ByteSource) -> [OggPacket] {
        var packets: [OggPacket] = []
        var current = OggPacket()
        var offset = 0
        var serial: UInt32?
        while packets.count < limit, let page = OggPage(in: source, at: offset) {
            if serial == nil { serial = page.serial }
            if page.serial == serial {
                var at = page.offset + page.headerLength
                for lacing in page.segments {
                    current.append(offset: at, length: Int(lacing))
                    at += Int(lacing)
                    if lacing < 255 {
                        packets.append(current)
                        current = OggPacket()
                        if packets.count == limit { break }
                    }
                }
            }
            offset = page.end
        }
        return packets
    }
}
