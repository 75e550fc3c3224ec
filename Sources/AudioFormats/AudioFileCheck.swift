/// Whether a complete file of a sniffed container can be played, judged from its structure
/// alone (no decoder: `sync` and `fetch` never load FFmpeg): an M4A cut short or without its
/// index, an MP4 with no audio track or an encrypted one, a codec podcli cannot decode, an Ogg
/// page that fails its checksum, a FLAC file with no frames. MPEG audio and ADTS are frames
/// that libmpg123 and FFmpeg resync through: the sniffer's verdict is enough.
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
            return tracks.contains { $0.handler == "vide" } ? "the MP4 file has video and no audio track"
                : "the MP4 file has no audio track"
        }
        let clear = audio.filter { !$0.isEncrypted }
        guard !clear.isEmpty else { return "the M4A file is encrypted (DRM), which podcli cannot play" }
        guard let playable = clear.first(where: isDecodable) else {
            return "its audio is in a format podcli cannot play (\(describe(clear[0])))"
        }
        if let last = playable.lastChunkOffset, last >= size {
            return "the M4A file is cut short: its audio runs past the end of the file (\(size) bytes)"
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
            pages += 1
            offset = page.end
        }
        return nil
    }

    private static func flacProblem(_ source: some ByteSource) -> String? {
        let size = source.size
        var offset = 4
        var first = true
        while true {
            let header = source.bytes(at: offset, count: 4)
            guard header.count == 4 else { return "the FLAC file is cut short (in its metadata)" }
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            if first && (header[0] & 0x7F != 0 || length != 34) {
                return "the FLAC file is damaged: it does not begin with its stream information"
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
}
