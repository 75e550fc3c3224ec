import AudioFormats
import EpisodeStore
import FoundationEssentials

/// The name of an episode's audio format (MP3, M4A, Opus, ...) as `list` and `show` give it:
/// what the downloaded file was found to be, else what the feed says, else the URL's extension.
public enum EpisodeFormat {
    /// The widest name the FORMAT column can show ("FLAC (Ogg)").
    public static let longestName =
        [
            AudioContainer.mpeg(layer: 3), .mp4, .adts, .ogg(.opus), .ogg(.vorbis), .ogg(.flac), .ogg(.speex),
            .ogg(.unknown), .flac,
        ].map(\.description.count).max() ?? 0

    public static func name(_ hint: MediaTypeHint?) -> String? {
        guard let hint else { return nil }
        let container =
            hint.fileType.flatMap(AudioContainer.init(mediaType:))
            ?? hint.enclosureType.flatMap(AudioContainer.init(mediaType:))
            ?? URLComponents(string: hint.sourceURL)?.path.split(separator: ".").last.flatMap {
                AudioContainer(fileExtension: String($0))
            }
        return container?.description
    }
}
