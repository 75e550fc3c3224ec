import Arguments
import EpisodeStore
import Playback
import PodcliKit
import Terminal
import Transcripts

#if canImport(Glibc)
    import Glibc
#endif

/// `podcli transcript ID [--at TIME] [--json]`: what is said in an episode, cue by cue, with
/// times and speakers, from the cue being spoken at a time.
enum TranscriptCommand: Command {
    static let id = Positional(
        "id", help: "The episode's number or a unique prefix of its UUID.", domain: .dynamic(.episode))
    static let at = Option(
        "at", valueName: "time",
        help: "Start at the cue spoken at <time> (seconds, MM:SS or H:MM:SS); default: where it plays now, if it does.")
    static let json = Flag("json", help: "Print the cues as a JSON array of {start, end, speaker, text}.")

    static let spec = CommandSpec(
        name: "transcript", abstract: "Print what is said in an episode, with times and speakers.",
        discussion: """
            Lines are wrapped to the terminal (or COLUMNS). A transcript not kept yet is fetched \
            from the feed's most structured offer (JSON, then WebVTT, SRT, HTML, plain text); a \
            downloaded episode keeps it beside its audio and in list -s's index, as its download \
            would have, while one not downloaded only shows it (nothing is written for it, so it is \
            fetched again next time). An episode whose feed offers no transcript podcli reads is one \
            line on stderr and exit 66; a server that fails or cannot be reached, 69; a transcript \
            that is not what it was offered as, 65.
            """, positionals: [id], options: [at], flags: [json], group: .playback)

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let start = try arguments.value(at, as: "a time (seconds, MM:SS or H:MM:SS)", PlaybackTime.parse)
        let library = try context.library()
        let episode = try library.episode(matching: arguments[id]!)
        let transcript: Transcript
        do {
            transcript = try EpisodeTranscript.cachedOrFetched(for: episode, in: library, fetcher: context.downloader())
        } catch let missing as TranscriptUnavailable {
            let types = missing.offeredTypes.joined(separator: ", ")
            let offered = missing.offeredTypes.isEmpty ? "" : " podcli reads (offered: \(types))"
            throw CommandFailure(
                description: "#\(episode.id) \(episode.title) has no transcript\(offered).", exitCode: .notFound)
        } catch let problem as TranscriptProblem {
            throw CommandFailure(description: "#\(episode.id) \(episode.title): \(problem)", exitCode: .badContent)
        }
        let from = start ?? playingPosition(of: episode, in: context)
        let cues =
            from.map { Array(transcript.cues[TranscriptReading.cueIndex(at: $0, in: transcript.cues)...]) }
            ?? transcript.cues
        if arguments[json] {
            context.output.json(try EpisodeReport.json(cues.map(Entry.init)))
            return
        }
        let width = Terminal.columns(of: STDOUT_FILENO) ?? context.environment["COLUMNS"].flatMap { Int($0) } ?? 80
        for line in lines(cues, width: width) { context.output.print(line) }
    }

    /// Where the running player is in `episode`; nil when none runs or it plays another one.
    private static func playingPosition(of episode: Episode, in context: Context) -> Double? {
        guard let socket = try? context.directories.get().controlSocket,
            case .playing(let report, _)? = try? PlayerAnswer.ask(at: socket), report.id == episode.id
        else { return nil }
        return report.position
    }

    /// "1:02  Name: what was said", the speaker named where it changes, the text wrapped under
    /// itself beside the times.
    static func lines(_ cues: [TranscriptCue], width: Int) -> [String] {
        let times = cues.map { $0.start.map(NowPlayingLine.clock) ?? "" }
        let timeWidth = times.map { DisplayWidth.of($0) }.max() ?? 0
        let indent = String(repeating: " ", count: timeWidth + 2)
        var speaker: String?
        var lines: [String] = []
        for (cue, time) in zip(cues, times) {
            let named = cue.speaker.flatMap { $0 == speaker ? nil : $0 + ": " } ?? ""
            speaker = cue.speaker ?? speaker
            let wrapped = wrap(named + cue.text, width: max(width - indent.count, 20))
            for (index, text) in wrapped.enumerated() {
                let head =
                    index == 0 ? time + String(repeating: " ", count: indent.count - DisplayWidth.of(time)) : indent
                lines.append(head + text)
            }
        }
        return lines
    }

    /// `text` in lines of at most `width` columns, broken at spaces (a longer word has a line of
    /// its own).
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ") {
            let word = String(word)
            let wordWidth = DisplayWidth.of(word)
            if !line.isEmpty, lineWidth + 1 + wordWidth > width {
                lines.append(line)
                (line, lineWidth) = ("", 0)
            }
            if !line.isEmpty {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += wordWidth
        }
        return lines.isEmpty || !line.isEmpty ? lines + [line] : lines
    }

    /// One cue as `--json` gives it: every key, null when unknown.
    struct Entry: Encodable {
        let start: Double?
        let end: Double?
        let speaker: String?
        let text: String

        init(_ cue: TranscriptCue) { (start, end, speaker, text) = (cue.start, cue.end, cue.speaker, cue.text) }

        enum CodingKeys: String, CodingKey { case start, end, speaker, text }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(start, forKey: .start)
            try container.encode(end, forKey: .end)
            try container.encode(speaker, forKey: .speaker)
            try container.encode(text, forKey: .text)
        }
    }
}
