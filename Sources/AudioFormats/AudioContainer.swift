/// What an audio file is, as far as podcli needs to know: its container and, for Ogg, the codec
/// inside. From the first bytes (`AudioSniffer`), a server's Content-Type or a file extension.
public enum AudioContainer: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// MPEG audio frames (layer 1, 2 or 3; nil when not known yet), perhaps behind an ID3v2 tag.
    case mpeg(layer: Int?)
    /// ISO base media, MP4 / M4A / M4B: AAC, ALAC, Opus, FLAC, AC-3 in a box structure.
    case mp4
    /// Raw AAC in ADTS frames (`.aac`).
    case adts
    case ogg(OggCodec)
    /// Native FLAC (`fLaC`).
    case flac

    /// The codec an Ogg stream's first packet names.
    public enum OggCodec: String, Sendable {
        case opus, vorbis, flac, speex
        /// Not one of the above (or not told, as by a bare `audio/ogg`).
        case unknown
    }

    /// MPEG audio is decoded by libmpg123, everything else by FFmpeg.
    public var isMPEG: Bool {
        if case .mpeg = self { return true }
        return false
    }

    /// The format's name as a listener knows it: MP3, M4A, AAC, Opus, Vorbis, FLAC.
    public var description: String {
        switch self {
        case .mpeg(let layer): return layer == 1 ? "MP1" : layer == 2 ? "MP2" : "MP3"
        case .mp4: return "M4A"
        case .adts: return "AAC"
        case .ogg(.opus): return "Opus"
        case .ogg(.vorbis): return "Vorbis"
        case .ogg(.flac): return "FLAC (Ogg)"
        case .ogg(.speex): return "Speex"
        case .ogg(.unknown): return "Ogg"
        case .flac: return "FLAC"
        }
    }

    /// The media type that names it exactly, recorded with a downloaded file.
    public var mediaType: String {
        switch self {
        case .mpeg(let layer): return layer == 1 || layer == 2 ? "audio/mpeg; layer=\(layer!)" : "audio/mpeg"
        case .mp4: return "audio/mp4"
        case .adts: return "audio/aac"
        case .ogg(.unknown): return "audio/ogg"
        case .ogg(let codec): return "audio/ogg; codecs=\(codec.rawValue)"
        case .flac: return "audio/flac"
        }
    }

    /// The extension a file of this format is given when its URL has none.
    public var fileExtension: String {
        switch self {
        case .mpeg(let layer): return layer == 2 ? "mp2" : layer == 1 ? "mp1" : "mp3"
        case .mp4: return "m4a"
        case .adts: return "aac"
        case .ogg(.opus): return "opus"
        case .ogg: return "ogg"
        case .flac: return "flac"
        }
    }

    /// The container a Content-Type (or a feed's enclosure type) names; nil for anything else,
    /// `application/octet-stream` included.
    public init?(mediaType: String) {
        let parts = mediaType.lowercased().split(separator: ";").map { $0.filter { !$0.isWhitespace } }
        guard let type = parts.first else { return nil }
        switch type {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg", "audio/x-mp3", "audio/x-mpeg-3", "audio/mpa",
            "audio/mpga", "audio/mpg":
            let layer = parts.dropFirst().first { $0.hasPrefix("layer=") }.flatMap { Int($0.dropFirst("layer=".count)) }
            self = .mpeg(layer: layer)
        case "audio/mp4", "audio/x-m4a", "audio/m4a", "audio/x-m4b", "audio/m4b", "audio/mp4a-latm", "video/mp4",
            "video/x-m4v", "video/quicktime", "audio/3gpp", "video/3gpp":
            self = .mp4
        case "audio/aac", "audio/x-aac", "audio/aacp", "audio/x-hx-aac-adts":
            self = .adts
        case "audio/opus":
            self = .ogg(.opus)
        case "audio/vorbis", "audio/x-vorbis":
            self = .ogg(.vorbis)
        case "audio/ogg", "application/ogg", "audio/x-ogg", "video/ogg":
            let codecs = parts.dropFirst().first { $0.hasPrefix("codecs=") }?.dropFirst("codecs=".count)
            self = .ogg(codecs.flatMap { OggCodec(rawValue: $0.filter { $0 != "\"" }) } ?? .unknown)
        case "audio/flac", "audio/x-flac":
            self = .flac
        default:
            return nil
        }
    }

    /// The container a file name's extension suggests (`mp3`, `m4a`, `opus`, ...).
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "mp3", "mpga", "mpeg": self = .mpeg(layer: nil)
        case "mp2": self = .mpeg(layer: 2)
        case "mp1": self = .mpeg(layer: 1)
        case "m4a", "m4b", "mp4", "m4v", "mov", "3gp": self = .mp4
        case "aac": self = .adts
        case "opus": self = .ogg(.opus)
        case "ogg", "oga": self = .ogg(.unknown)
        case "flac": self = .flac
        default: return nil
        }
    }
}
