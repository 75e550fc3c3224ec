/// The cover art of an MP4 / M4A file: the `data` boxes of `moov/udta/meta/ilst/covr` (iTunes
/// metadata; older files put `meta` straight under `moov`).
enum MP4Cover {
    static func first(in source: some ByteSource, limit: Int) -> [UInt8]? {
        let size = source.size
        guard let index = MP4Box.children(in: source, from: 0, to: size).first(where: { $0.type == "moov" }) else {
            return nil
        }
        let list =
            index.descendant(["udta", "meta", "ilst"], in: source) ?? index.descendant(["meta", "ilst"], in: source)
        guard let covers = list?.children(in: source).first(where: { $0.type == "covr" }) else { return nil }
        for data in covers.children(in: source) where data.type == "data" {
            // Four bytes of type (13 JPEG, 14 PNG) and flags, four of locale, then the image.
            let length = data.contentLength - 8
            guard length > 0, length <= limit else { continue }
            let bytes = source.bytes(at: data.contentStart + 8, count: length)
            if bytes.count == length { return bytes }
        }
        return nil
    }
}
