import AudioSession
import Downloads
import EpisodeStore
import Playback
import RemoteControl
import Terminal
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// One `podcli play`: the episodes to play in turn, the device, the keys and signals that
/// become player commands, the now-playing display, and the positions saved as it goes.
public final class PlaySession {
    let library: Library
    private let deviceName: String
    public let keymap: Keymap
    /// For episodes played before they are downloaded.
    private let downloadPolicy: DownloadPolicy
    public let commands = CommandQueue()
    /// Whether `t` asked for the cue being spoken under the now-playing line.
    public let transcriptKey = TranscriptKey()
    public let display: any PlayDisplay
    public let terminal: TerminalMode?

    /// How often the position is written while playing, in seconds of media (at 3× that is every
    /// 1/6 s of wall time): a `kill -9` loses at most this much, plus the player's report interval
    /// (0.25 s of media) it is checked at: under a second of the episode in all, at any speed. A save
    /// is one small UPDATE, not synced (WAL, synchronous = NORMAL): a killed process loses nothing
    /// the kernel has.
    public static let saveInterval = 0.5

    /// What `podcli status` is told.
    public let board = NowPlayingBoard()
    /// Where the control socket listens.
    public let controlSocket: String
    /// The episodes' artwork, found in the background.
    private let artwork: EpisodeArtwork
    /// A player started by `play --background`: without its control socket nothing could reach
    /// it, so it stops rather than play on.
    public let requiresRemoteControl: Bool
    private let listensForSignals: Bool
    /// How each episode sounds.
    private let listening: Listening

    /// - Parameters:
    ///   - terminal: where keys come from and raw mode is set (nil: none, as for a session
    ///     whose stdin is not a terminal).
    ///   - listensForSignals: whether SIGINT, SIGTERM, SIGHUP, Ctrl-Z and SIGCONT become the
    ///     session's commands. They are the process's: a session inside a process that is not
    ///     podcli's own (a test) leaves them alone.
    public init(
        library: Library, display: any PlayDisplay, device: String, keymap: Keymap, downloadPolicy: DownloadPolicy,
        controlSocket: String, helpers: any HelperProcesses, requiresRemoteControl: Bool = false,
        terminal: TerminalMode? = TerminalMode(descriptor: STDIN_FILENO), listensForSignals: Bool = true,
        listening: Listening = Listening()
    ) {
        self.listening = listening
        self.listensForSignals = listensForSignals
        self.library = library
        self.controlSocket = controlSocket
        self.requiresRemoteControl = requiresRemoteControl
        self.downloadPolicy = downloadPolicy
        self.artwork = EpisodeArtwork(policy: downloadPolicy, helpers: helpers)
        self.deviceName = device
        self.keymap = keymap
        self.terminal = terminal
        self.display = display
    }

    /// Plays `playlist` from its first episode; returns why it stopped. An episode the playlist
    /// made for a URL that could not be streamed is forgotten, unless something of it was kept.
    public func run(_ playlist: Playlist, from start: Double?, limit: Double?, engine: PlaybackEngine) throws
        -> StopReason
    {
        do {
            return try run(playlist.episodes, from: start, limit: limit, engine: engine)
        } catch {
            if let madeHere = playlist.madeHere { _ = try? library.forgetIfNothingKept(madeHere) }
            throw error
        }
    }

    /// Plays `playlist` from its first episode; returns why it stopped.
    /// - Parameters:
    ///   - start: seconds to start the first episode at (default: where it was left).
    ///   - limit: seconds of audio to play in all (`--for`).
    public func run(
        _ playlist: [Episode], from start: Double?, limit: Double?, engine: PlaybackEngine
    ) throws -> StopReason {
        // Before any thread starts (see `CurlLibrary`), and only when something may be fetched.
        if try playlist.contains(where: needsNetwork) { CurlLibrary.initialize() }
        let stopListeningForSignals = listensForSignals ? listenForSignals() : {}
        defer { stopListeningForSignals() }
        // Every thread this session starts has ended when it returns, whichever way it returns:
        // nothing may still run (inside libcurl, OpenSSL, sd-bus) while `exit` cleans them up.
        defer { stopThreads() }
        let sleepWatcher = listenForSleep()
        mediaPlayer = listenForMediaControls()
        let server = try listenForRemoteControl()
        services += [sleepWatcher?.stop, mediaPlayer?.stop, server?.stop].compactMap { $0 }
        if terminal != nil {
            // A background job (`podcli play ... &`) leaves the terminal alone: changing it, or
            // reading it, would stop the process (SIGTTOU, SIGTTIN). Coming to the foreground
            // (SIGCONT) puts it in raw mode then.
            signal(SIGTTIN, SIG_IGN)
            takeTerminalIfForeground()
            readKeys()
        }
        defer { terminal?.restore() }
        defer { display.finish() }

        let device = AudioDevice(name: deviceName)
        device.onOpen = { [self] output in
            watchJacks(of: output)
            if let alsa = output as? ALSAOutput, alsa.resamples {
                display.note(
                    "The device '\(alsa.deviceName)' cannot play \(alsa.format.sampleRate) Hz: ALSA resamples it")
            }
        }
        var playing = Playing(engine: engine, chosenSpeed: listening.speed, remaining: limit, device: device)
        var index = 0
        var startAt = start
        var unplayable: [any Error & Sendable] = []
        while index < playlist.count {
            let episode = playlist[index]
            place = (index, playlist.count)
            let reason: StopReason
            do {
                reason = try play(episode, from: startAt, playing: &playing)
            } catch  where playlist.count > 1 && Self.isTheEpisodesFault(error) {
                // One bad episode does not stop the queue: say why and go on with the next.
                display.warn("#\(episode.id) \(episode.title) cannot be played: \(error)")
                unplayable.append(error)
                index += 1
                startAt = nil
                continue
            }
            startAt = nil
            switch reason {
            case .endOfEpisode, .markedPlayed:
                try library.markPlayed(episode, play: lastPlay)
                _ = try library.dequeue(episode)
                display.note("Played #\(episode.id) \(episode.title)")
                if playing.sleepsNow {
                    display.note("Sleep timer: stopped at the end of #\(episode.id)")
                    return .sleepTimer
                }
                index += 1
            case .next:
                index += 1
            case .previous:
                // Before the first episode there is nothing: start this one again.
                if index == 0 { startAt = 0 } else { index -= 1 }
            case .limitReached, .quit, .signal, .sleepTimer:
                return reason
            }
        }
        if let first = unplayable.first {
            throw PodcliError.unplayable(count: unplayable.count, first: first)
        }
        return .endOfEpisode
    }

    /// What carries over from one episode to the next.
    private struct Playing {
        var engine: PlaybackEngine
        /// The speed the listener chose in this session (with --speed, or while playing): over
        /// the feeds' settings from then on.
        var chosenSpeed: Double?
        /// Seconds of audio left to play (`--for`).
        var remaining: Double?
        /// Opened for the first episode, reopened when the format changes or after it was lost.
        let device: AudioDevice
        /// The episode played to its end with the sleep timer set for it: the session ends.
        var sleepsNow = false
        /// The sleep timer's fade as the last episode left it: the next one goes on from there.
        var fadeLevel = 1.0
    }

    /// Opens one episode, positions it and plays it.
    /// - Throws: a stream's download failure too: a stream also ends where its download failed,
    ///   and that is no end of the episode.
    private func play(_ episode: Episode, from requested: Double?, playing: inout Playing) throws -> StopReason {
        // Retention (`sync`) and `rm` leave the files of an episode being played alone.
        let hold = PlaybackHold.shared(episode, in: library)
        defer { withExtendedLifetime(hold) {} }
        guard let (decoder, stream) = try open(episode) else {
            return commands.take().lazy.compactMap(\.signalNumber).first.map(StopReason.signal) ?? .quit
        }
        let settings = listening.settings(for: episode)
        let span = try span(of: episode, decoder: decoder, requested: requested, settings: settings)
        decoder.seek(toFrame: span.start)
        findArtwork(of: episode, playing: decoder.path)
        let rate = Double(decoder.format.sampleRate)
        let speed = playing.chosenSpeed ?? settings.speed
        playing.engine.start(atSpeed: speed)
        let chapters = try EpisodeChapterTable(episode, in: library)
        playing.engine.chapters = chapters.marks
        let filters = try listening.filters(for: settings, of: episode, in: library)
        let player = Player(
            decoder: decoder, device: playing.device, commands: commands, engine: playing.engine,
            limit: playing.remaining.map { Int(($0 * rate).rounded()) }, filters: filters,
            fadeLevel: playing.fadeLevel, end: span.end)
        var tally = ListeningTally(
            player, skipper: filters.lazy.compactMap { $0 as? SilenceSkipper }.first,
            introSkipped: span.introSkipped * 1000 / decoder.format.sampleRate)
        let outroSkipped = span.end.map { (decoder.frameCount ?? $0) - $0 } ?? 0
        let reason = try run(
            player, for: episode, chapters: chapters, tally: &tally,
            outroSkipped: outroSkipped * 1000 / decoder.format.sampleRate)
        playing.sleepsNow = reason == .endOfEpisode && player.engine.sleepDeadline == .endOfEpisode
        playing.fadeLevel = player.fadeLevel
        if player.engine.speed != speed { playing.chosenSpeed = player.engine.speed }
        playing.engine = player.engine.forNextEpisode(listened: player.listenedSeconds)
        playing.remaining = playing.remaining.map { $0 - Double(player.clock.mediaFramesPlayed) / rate }
        if reason == .endOfEpisode, let failure = stream?.failure {
            try save(player.position, of: episode, sampleRate: decoder.format.sampleRate, tally: &tally)
            throw failure
        }
        return reason
    }

    /// A decoder for the episode's file; for an episode not downloaded, a stream, opened once
    /// enough has arrived (nil when a stop command came first).
    private func open(_ episode: Episode) throws -> (any AudioDecoder, EpisodeStream?)? {
        if let file = try library.files(of: episode).first {
            return (try AudioDecoders.open(path: library.path(of: file)), nil)
        }
        // One download per episode for the whole session (going back to it with `p` must not
        // start a second one); a failed one is tried again.
        let stream = try streams[episode.id].flatMap { $0.failure == nil ? $0 : nil } ?? stream(episode)
        streams[episode.id] = stream
        let commands = commands
        let display = display
        return try stream.openDecoder(endingOn: commands, note: { display.note($0) }).map {
            ($0, stream)
        }
    }

    /// Downloads started by this session, by episode.
    private var streams: [Int: EpisodeStream] = [:]

    /// The episode's last play a sync server learns of (`play(at:startedAt:)`).
    private var lastPlay: PlaySpan?

    /// A play for the sync server at a pause or a stop (nil at any other status): from where
    /// playing began or resumed (`start`, kept here) to the position, in whole seconds of media.
    private static func play(at status: PlayerStatus, startedAt start: inout Int?) -> PlaySpan? {
        switch status.event {
        case .started(let frame)?, .stateChanged(.playing, let frame)?:
            start = frame
            return nil
        case .stateChanged(.paused, let frame)?, .stopped(_, let frame)?:
            return PlaySpan(
                started: (start ?? frame) / status.sampleRate, position: frame / status.sampleRate,
                total: status.frameCount.map { $0 / status.sampleRate })
        default: return nil
        }
    }

    /// How to stop (and wait for) each thread this session started but the streams' and the
    /// artwork's: the key reader, the control socket, MPRIS, the watchers.
    public var services: [() -> Void] = []
    /// The episode's place in the playlist (for the media controls' next and previous).
    public var place = (index: 0, count: 1)
    /// The player on the session bus, when there is one (MPRIS).
    public var mediaPlayer: MediaPlayer2?
    /// Cards whose headphone jacks are watched.
    public var watchedCards: Set<Int> = []

    /// Ends every thread the session started, and waits for them: the downloads and the artwork
    /// first (a transfer ends at once), then the rest.
    private func stopThreads() {
        for stream in streams.values { stream.stop() }
        artwork.stop()
        for stop in services.reversed() { stop() }
        services = []
    }

    /// Whether playing `episode` may fetch: it streams, or it has an image to fetch.
    private func needsNetwork(_ episode: Episode) throws -> Bool {
        if try library.files(of: episode).isEmpty || episode.imageURL != nil { return true }
        return try episode.feedID.flatMap { try library.feed(id: $0) }?.imageURL != nil
    }

    /// Errors that are the episode's own (its file, its download), not the device's, the
    /// library's or the command line's.
    private static func isTheEpisodesFault(_ error: any Error) -> Bool {
        if case StoreError.busy = error { return true }  // another podcli is downloading it
        return error is DecoderError || error is DownloadError
    }

    /// Runs the player on one episode, saving its position (and what was played) as it goes and
    /// whatever way it stops; an episode that ends, `outroSkipped` milliseconds before its file's
    /// end, is counted finished.
    private func run(
        _ player: Player, for episode: Episode, chapters read: EpisodeChapterTable, tally: inout ListeningTally,
        outroSkipped: Int
    ) throws -> StopReason {
        var chapters = read
        let feed = try episode.feedID.flatMap { try library.feed(id: $0) }
        let podcast = feed?.title
        let author = episode.author ?? feed?.author
        // The position last saved (media frames): saves are counted in media time.
        var lastSaved: Int?
        var cues = PlayingTranscript(EpisodeTranscript.cached(for: episode, in: self.library))
        // Why the last save failed, until one succeeds: the position the player stops at must
        // be saved, or the user told.
        var saveFailure: StoreError?
        var playStart: Int?
        lastPlay = nil
        let reason: StopReason
        do {
            reason = try player.play { status in
                if status.event == .redraw { takeTerminalIfForeground() }
                if case .bookmarked(let note, let ticket, let frame) = status.event {
                    recordBookmark(of: episode, at: frame, sampleRate: status.sampleRate, note: note, ticket: ticket)
                }
                // Skips chosen while playing (`podcli chapters --skip`) apply from here on.
                if status.event == .chaptersChanged, let table = try? EpisodeChapterTable(episode, in: library) {
                    chapters = table
                    commands.post(.setChapters(table.marks))
                }
                let duration = status.duration ?? episode.durationMilliseconds.map { Double($0) / 1000 }
                let artworkPath = artwork.path(of: episode.id)
                let chapter = status.chapter.map { NowPlayingChapter(chapters.chapters[$0], number: $0 + 1) }
                board.post(
                    NowPlayingReport(
                        state: status.state.description, id: episode.id, title: episode.title, podcast: podcast,
                        author: author,
                        position: status.seconds, duration: duration, volume: status.volume, rate: status.speed,
                        sleep: status.sleep.map(NowPlaying.Sleep.init), artwork: artworkPath, chapter: chapter))
                showOnMediaControls(
                    status, of: episode, podcast: podcast, author: author, duration: duration, artwork: artworkPath,
                    chapter: chapter?.name)
                display.showCue(
                    cues.line(
                        at: status.seconds, wanted: transcriptKey.isWanted, episodeID: episode.id, note: display.note))
                display.show(status, of: episode, podcast: podcast, author: author, chapter: chapter?.name)
                if display.readerGone { commands.post(.quit) }
                let play = Self.play(at: status, startedAt: &playStart)
                if let play { lastPlay = play }
                if status.event != nil
                    || lastSaved.map({
                        Double(abs(status.position - $0)) >= Self.saveInterval * Double(status.sampleRate)
                    }) ?? true
                {
                    lastSaved = status.position
                    if case .stopped(.endOfEpisode, _) = status.event { tally.finish(outroSkipped: outroSkipped) }
                    if case .stopped(.markedPlayed, _) = status.event { tally.finish(outroSkipped: 0) }
                    do throws(StoreError) {
                        try save(status.position, of: episode, sampleRate: status.sampleRate, tally: &tally, play: play)
                        saveFailure = nil
                    } catch {
                        saveFailure = error
                    }
                }
                if case .suspending = status.event { suspend() }
            }
        } catch {
            try? save(player.position, of: episode, sampleRate: player.format.sampleRate, tally: &tally)
            throw error
        }
        // Played to its end (or marked played), the episode's record is `markPlayed`'s to make,
        // and its failure to tell.
        if let saveFailure, reason != .endOfEpisode, reason != .markedPlayed {
            throw PodcliError.positionNotSaved(
                episode: episode.id, title: episode.title,
                position: NowPlayingLine.clock(Double(player.position) / Double(player.format.sampleRate)),
                reason: saveFailure)
        }
        return reason
    }

    /// Saves the position, and what was played since the last save (the listening log, the
    /// silence skipped), in one transaction; at a pause or a stop, with the `play` a sync server
    /// learns.
    private func save(
        _ frame: Int, of episode: Episode, sampleRate: Int, tally: inout ListeningTally, play: PlaySpan? = nil
    ) throws(StoreError) {
        let listened = tally.unsaved
        try library.savePlayback(
            PlaybackState(positionMilliseconds: frame * 1000 / sampleRate, played: false), of: episode,
            listened: listened, play: play)
        tally.saved(listened)
    }

    /// Starts finding the episode's artwork. When it arrives, a redraw reports it (to `status`
    /// and the media controls) at once rather than at the next periodic report.
    private func findArtwork(of episode: Episode, playing audioPath: String) {
        let podcastImage = (try? episode.feedID.flatMap { try library.feed(id: $0) })??.imageURL
        let sources = EpisodeArtwork.Sources(
            cachePath: library.artworkPath(of: episode), protection: episode.protection, audioPath: audioPath,
            imageURLs: [episode.imageURL, podcastImage].compactMap { $0 })
        let commands = commands
        artwork.find(for: episode.id, in: sources) { commands.post(.redraw) }
    }

    /// Starts downloading an episode that has no file yet, to play it as it arrives.
    private func stream(_ episode: Episode) throws -> EpisodeStream {
        try DownloadError.checkFetchable(episode.sourceURL)
        display.note("Streaming #\(episode.id) \(episode.title) from \(episode.sourceURL)")
        return EpisodeStream(episode: episode, libraryDirectory: library.directory, policy: downloadPolicy)
    }

    /// Where to start and end: from `startFrame`, past the intro when that is the beginning
    /// (not `requested`), and ending before the outro; neither when they leave nothing to play,
    /// nor the intro before the decoder can seek past it (a stream arriving), nor the outro when
    /// the length is not known yet or playing starts inside it.
    private func span(of episode: Episode, decoder: any AudioDecoder, requested: Double?, settings: ListeningSettings)
        throws -> (start: Int, end: Int?, introSkipped: Int)
    {
        let start = try startFrame(of: episode, decoder: decoder, requested: requested)
        let rate = decoder.format.sampleRate
        let (intro, outro) = (settings.skipIntro * rate, settings.skipOutro * rate)
        if let length = decoder.frameCount, intro + outro >= length { return (start, nil, 0) }
        let skipsIntro = intro > 0 && requested == nil && start == 0 && (decoder.seekableFrames ?? 0) > intro
        let from = skipsIntro ? intro : start
        let end = decoder.frameCount.flatMap { outro > 0 && from < $0 - outro ? $0 - outro : nil }
        return (from, end, skipsIntro ? intro : 0)
    }

    /// Where to start: `requested`, else where the episode was left (the start once played, or
    /// when it was left at its very end).
    private func startFrame(of episode: Episode, decoder: any AudioDecoder, requested: Double?) throws -> Int {
        let length = decoder.frameCount
        if let requested {
            let frame = Int((requested * Double(decoder.format.sampleRate)).rounded())
            if let length, frame >= length {
                throw PodcliError.startPastTheEnd(
                    episode: episode.id, start: NowPlayingLine.clock(requested),
                    length: NowPlayingLine.clock(Double(length) / Double(decoder.format.sampleRate)))
            }
            return frame
        }
        let state = try library.playbackState(of: episode)
        guard !state.played else { return 0 }
        let frame = state.positionMilliseconds * decoder.format.sampleRate / 1000
        if let length, frame >= length { return 0 }
        return frame
    }
}

extension PlayerCommand {
    fileprivate var signalNumber: Int32? {
        if case .signal(let number) = self { return number }
        return nil
    }
}
