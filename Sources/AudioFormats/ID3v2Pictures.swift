/// The pictures of an ID3v2 tag (APIC in v2.3 and v2.4, PIC in v2.2), found by walking the
/// frame headers: a frame is read only when it is a picture no larger than the limit, never
/// the whole tag (a 100 MB picture would otherwise be 100 MB of memory, twice).
enum ID3v2Pictures {
    /// The front cover, else the first picture, of the first tag that has one: a file may carry
    /// several tags back to back (a tagger that prepended its own).
    static func front(in source: some ByteSource, limit: Int) -> [UInt8]? {
        var offset = 0
        while let header = ID3v2Header(source.bytes(at: offset, count: ID3v2Header.length)) {
            if let picture = front(in: source, tagAt: offset, header: header, limit: limit) { return picture }
            offset += header.end
        }
        return nil
    }

    private static func front(in source: some ByteSource, tagAt start: Int, header: ID3v2Header, limit: Int)
        -> [UInt8]?
    {
        guard var cursor = ID3TagCursor(tagAt: start, header: header, in: source) else { return nil }
        var first: [UInt8]?
        while let frame = ID3Frame(reading: &cursor, version: header.majorVersion) {
            guard frame.isPicture, !frame.isCompressedOrEncrypted, frame.storedLength <= limit + limit / 4 else {
                cursor.skip(frame.storedLength)
                continue
            }
            guard let body = frame.body(from: &cursor) else { return first }
            guard let (type, image) = picture(in: body, version: header.majorVersion), image.count <= limit else {
                continue
            }
            if type == EmbeddedPictures.frontCover { return image }
            if first == nil { first = image }
        }
        return first
    }

    /// The picture type and image of an APIC (or v2.2 PIC) frame's body.
    static func picture(in body: [UInt8], version: Int) -> (type: Int, image: [UInt8])? {
        guard let encoding = body.first else { return nil }
        var index = 1
        if version == 2 {
            index += 3  // an image format of three letters ("JPG", "PNG")
        } else {
            guard let end = body[index...].firstIndex(of: 0) else { return nil }
            index = end + 1  // the MIME type, Latin-1, null-terminated
        }
        guard index < body.count else { return nil }
        let type = Int(body[index])
        index += 1
        // The description, in the frame's encoding.
        index = ID3Text.terminated(body, from: index, encoding: encoding).next
        guard index < body.count else { return nil }
        return (type, Array(body[index...]))
    }
}
