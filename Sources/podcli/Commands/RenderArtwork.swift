import Arguments
import Artwork
import Downloads
import FoundationEssentials
import PodcliKit

/// `podcli render-artwork SOURCE DESTINATION --mode OCTAL`: an image file made into the square
/// artwork file. Hidden: `play` runs it in a process of its own (`EpisodeArtwork`), so the player
/// never loads libgd and its libraries (about 10 MB) nor decodes an image from the network in its
/// own address space.
enum RenderArtwork: Command {
    static let source = Positional("source", help: "The image (PNG, JPEG, GIF or WebP); - reads it from stdin.")
    static let destination = Positional("destination", help: "Where the square JPEG goes (replaced atomically).")
    static let mode = Option("mode", valueName: "octal", help: "The file's mode.", defaultValue: "600")

    static let spec = CommandSpec(
        name: "render-artwork", abstract: "Make an image into a square artwork file of at most 600 px.",
        positionals: [source, destination], options: [mode], isHidden: true)

    /// The source that means stdin (how `play` hands the image over: a file with no name).
    static let standardInput = "-"

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let fileMode = try arguments.value(mode, as: "an octal mode such as 600") { mode_t($0, radix: 8) }
        let path = arguments[source]!
        guard
            let bytes = path == standardInput
                ? Descriptor.readAll(from: STDIN_FILENO, upTo: ImageFetcher.maximumBytes)
                : FileManager.default.contents(atPath: path).map(Array.init)
        else {
            throw CommandFailure(
                description: "could not read \(path == standardInput ? "stdin" : path)", exitCode: .storage)
        }
        do {
            _ = try ArtworkFile.write(bytes, to: arguments[destination]!, mode: fileMode ?? 0o600)
        } catch {
            throw CommandFailure(description: "\(error)", exitCode: .badContent)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
