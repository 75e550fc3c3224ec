/// Whether a complete file of a sniffed container can be played, judged from its structure
/// alone (no decoder: `sync` and `fetch` never load FFmpeg) as the player's decoders judge it:
/// an M4A cut short or without its index, an MP4 with no audio track or an encrypted one, a
/// codec podcli cannot decode, a sample table FFmpeg refuses (counting nothing, or more than it
/// holds), an Ogg page that fails its checksum, an Ogg stream with no audio packet after its
/// headers, FLAC stream information FFmpeg refuses, a FLAC file with no frames. MPEG audio and
/// ADTS are frames that libmpg123 and FFmpeg resync through: the sniffer's verdict is enough.
public enum AudioFileCheck {
    /// What is wrong with `source`, in a user's words; nil when it looks playable.
    public static func problem(in source: some ByteSource, container: AudioContainer) -> String? {
        switch container {
        case .mp4: return mp4Problem(source)
        case .ogg(let codec): return oggProblem(source, codec: codec)
        case .flac: return flacProblem(source)
        case .mpeg, .adts: return nil
        }
    }

    /// Audio codecs in MP4 that FFmpeg (as Debian builds it) decodes.
    static let mp4Codecs: Set<String> = [
        "mp4a", "alac", "Opus", "fLaC", "ac-3", "ec-3", ".mp3", "mp3 ", "sowt", "twos", "lpcm", "ipcm",
    ]
    /// MPEG-4 object types of `mp4a` that FFmpeg decodes: AAC (MPEG-4, MPEG-2 Main, LC, SSR),
    /// MPEG-1/2 audio, AC-3, E-AC-3.
    static let mp4aObjectTypes: Set<UInt8> = [0x40, 0x66, 0x67, 0x68, 0x69, 0x6B, 0xA5, 0xA6]

    private static func mp4Problem(_ source: some ByteSource) -> String? {
        let size = source.size
        var offset = 0
        var index: MP4Box?
        while offset + 8 <= size {
            guard let box = MP4Box(in: source, at: offset, limit: size) else {
                return "the M4A file is damaged: no MP4 box where one should begin (byte \(offset))"
            }
            guard box.end <= size else {
                return "the M4A file is cut short: its '\(box.type)' box runs to byte \(box.end), "
                    + "past the end of the file (\(size) bytes)"
            }
            if box.type == "moov" { index = box }
            offset = box.end
        }
        guard let index else {
            return "the M4A file has no index (no 'moov' box): it is incomplete, or a recording never finished"
        }
        let tracks = index.children(in: source).filter { $0.type == "trak" }.map { MP4Track($0, in: source) }
        let audio = tracks.filter { $0.handler == "soun" }
        guard !audio.isEmpty else {
            return tracks.contains { $0.handler == "vide" }
                ? "the MP4 file has video and no audio track"
                : "the MP4 file has no audio track"
        }
        let clear = audio.filter { !$0.isEncrypted }
        guard !clear.isEmpty else { return "the M4A file is encrypted (DRM), which podcli cannot play" }
        guard let playable = clear.first(where: isDecodable) else {
            return "its audio is in a format podcli cannot play (\(describe(clear[0])))"
        }
        let fragmented = index.children(in: source).contains { $0.type == "mvex" }
        if let problem = sampleTableProblem(playable, fragmented: fragmented) { return problem }
        if let last = playable.lastChunkOffset, last >= size {
            return "the M4A file is cut short: its audio runs past the end of the file (\(size) bytes)"
        }
        return nil
    }

    /// What FFmpeg's MP4 reader refuses in a track's sample table (libavformat's mov.c): no
    /// sample description or more than 1,024; unless the samples come in fragments after the
    /// index (`mvex`), a table missing or counting nothing; and a table counting more entries
    /// than its box holds.
    private static func sampleTableProblem(_ track: MP4Track, fragmented: Bool) -> String? {
        let tables = [
            ("stsd", "sample descriptions"), ("stts", "durations"), ("stsc", "chunk runs"), ("stsz", "samples"),
            ("stco", "chunks"),
        ]
        for (name, entries) in tables {
            let required = name == "stsd" || !fragmented
            guard let table = track.tableCounts[name] else {
                if required { return "the M4A file is damaged: its audio track has no '\(name)' box" }
                continue
            }
            let impossible = !table.fits || (name == "stsd" && table.count > 1024)
            guard impossible || (required && table.count == 0) else { continue }
            return "the M4A file is damaged: its audio track's '\(name)' box counts \(table.count) \(entries)"
                + (impossible ? ", more than it holds" : "")
        }
        return nil
    }

    static func isDecodable(_ track: MP4Track) -> Bool {
        guard let codec = track.codec, mp4Codecs.contains(codec) else { return false }
        return codec != "mp4a" || track.objectType.map(mp4aObjectTypes.contains) ?? true
    }

    private static func describe(_ track: MP4Track) -> String {
        if track.codec == "mp4a", let type = track.objectType {
            return "MPEG-4 audio object type 0x" + String(type, radix: 16, uppercase: true)
        }
        return "'\(track.codec ?? "none")'"
    }

    private static func oggProblem(_ source: some ByteSource, codec: AudioContainer.OggCodec) -> String? {
        guard codec != .unknown else { return "its audio is in an Ogg format podcli cannot play" }
        let size = source.size
        var offset = 0
        var pages = 0
        var audio = OggAudioSearch(codec: codec)
        while offset < size {
            guard let page = OggPage(in: source, at: offset) else {
                return pages > 0 && size - offset < OggPage.fixedHeaderLength
                    ? "the Ogg file is cut short (in the page at byte \(offset))"
                    : "the Ogg file is damaged: no Ogg page where one should begin (byte \(offset))"
            }
            guard page.end <= size else { return "the Ogg file is cut short (in the page at byte \(offset))" }
            guard page.checksumMatches(in: source) else {
                return "the Ogg file is damaged: the page at byte \(offset) fails its checksum"
            }
            if let problem = audio.look(at: page, in: source) { return problem }
            pages += 1
            offset = page.end
        }
        return audio.found ? nil : "the Ogg file has no audio: its stream ends after its headers"
    }

    private static func flacProblem(_ source: some ByteSource) -> String? {
        let size = source.size
        var offset = 4
        var first = true
        while true {
            let header = source.bytes(at: offset, count: 4)
            guard header.count == 4 else { return "the FLAC file is cut short (in its metadata)" }
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            if first {
                if header[0] & 0x7F != 0 || length != 34 {
                    return "the FLAC file is damaged: it does not begin with its stream information"
                }
                if let problem = streamInfoProblem(source.bytes(at: offset + 4, count: 34)) { return problem }
            }
            first = false
            offset += 4 + length
            guard offset <= size else { return "the FLAC file is cut short (in its metadata)" }
            if header[0] & 0x80 != 0 { break }
        }
        let sync = source.bytes(at: offset, count: 2)
        guard sync.count == 2, sync[0] == 0xFF, sync[1] & 0xFE == 0xF8 else {
            return "the FLAC file has no audio frames after its metadata"
        }
        return nil
    }

    /// What libavcodec's FLAC decoder refuses in the 34 bytes of a STREAMINFO block (RFC 9639,
    /// 8.2): a largest block under 16 samples, a sample rate of 0, under 4 bits a sample.
    static func streamInfoProblem(_ info: [UInt8]) -> String? {
        guard info.count == 34 else { return "the FLAC file is cut short (in its metadata)" }
        let largestBlock = Int(info[2]) << 8 | Int(info[3])
        let sampleRate = Int(info[10]) << 12 | Int(info[11]) << 4 | Int(info[12]) >> 4
        let bitsPerSample = (Int(info[12] & 0x01) << 4 | Int(info[13]) >> 4) + 1
        if largestBlock < 16 {
            return "the FLAC stream is damaged: its blocks are at most \(largestBlock) samples (16 or more)"
        }
        if sampleRate == 0 { return "the FLAC stream is damaged: its sample rate is 0" }
        if bitsPerSample < 4 { return "the FLAC stream is damaged: its samples are \(bitsPerSample) bits (4 or more)" }
        return nil
    }
}

/// Whether an Ogg stream has an audio packet after its header packets, looked for a page at a
/// time as the check reads them (only the first stream's, the one the sniffer named): libavformat
/// gives up on a stream that ends after its headers. Codecs tell their packets apart by their
/// first bytes: Vorbis's headers have an odd first byte, FLAC's frames begin with their sync
/// code; Opus and Speex have two header packets. Also checks FLAC's stream information, in the
/// first packet after its Ogg mapping's 13 bytes and the block's header.
struct OggAudioSearch {
    let codec: AudioContainer.OggCodec
    private(set) var found = false
    private var serial: UInt32?
    private var packets = 0

    init(codec: AudioContainer.OggCodec) { self.codec = codec }

    mutating func look(at page: OggPage, in source: some ByteSource) -> String? {
        guard !found else { return nil }
        if serial == nil { serial = page.serial }
        guard page.serial == serial else { return nil }
        var at = page.offset + page.headerLength
        var startsPacket = !page.continuesPacket
        for lacing in page.segments {
            if startsPacket, lacing > 0 {
                let first = source.bytes(at: at, count: min(Int(lacing), 2))
                if packets == 0, codec == .flac,
                    let problem = AudioFileCheck.streamInfoProblem(source.bytes(at: at + 17, count: 34))
                {
                    return problem
                }
                packets += 1
                if isAudio(first, index: packets) {
                    found = true
                    return nil
                }
            }
            startsPacket = lacing < 255
            at += Int(lacing)
        }
        return nil
    }

    /// Whether the `index`th packet (from 1), beginning with `first`, is audio rather than a header.
    private func isAudio(_ first: [UInt8], index: Int) -> Bool {
        guard let byte = first.first else { return false }
        switch codec {
        case .vorbis: return byte & 0x01 == 0
        case .flac: return first.count == 2 && byte == 0xFF && first[1] & 0xFE == 0xF8
        case .opus, .speex, .unknown: return index > 2
        }
    }
}
