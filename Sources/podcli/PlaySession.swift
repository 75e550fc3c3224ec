import AudioSession
import Dispatch
import Downloads
import EpisodeStore
import Playback
import RemoteControl
import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// One `podcli play`: the episodes to play in turn, the device, the keys and signals that
/// become player commands, the now-playing display, and the positions saved as it goes.
final class PlaySession {
    private let library: Library
    private let deviceName: String
    private let keymap: Keymap
    /// For episodes played before they are downloaded.
    private let downloadPolicy: DownloadPolicy
    private let commands = CommandQueue()
    private let display: NowPlayingDisplay
    private let terminal: TerminalMode?

    /// How often the position is written while playing: a `kill -9` loses at most this much
    /// (plus the device's buffer).
    static let saveInterval = 2.0

    /// What `podcli status` is told.
    private let board = NowPlayingBoard()
    /// Where the control socket listens.
    private let controlSocket: String
    /// The episodes' artwork, found in the background.
    private let artwork: EpisodeArtwork

    init(
        library: Library, output: Output, device: String, keymap: Keymap, downloadPolicy: DownloadPolicy,
        controlSocket: String
    ) {
        self.library = library
        self.controlSocket = controlSocket
        self.downloadPolicy = downloadPolicy
        self.artwork = EpisodeArtwork(policy: downloadPolicy)
        self.deviceName = device
        self.keymap = keymap
        self.terminal = TerminalMode(descriptor: STDIN_FILENO)
        self.display = NowPlayingDisplay(output: output)
    }

    /// Plays `playlist` from its first episode; returns why it stopped.
    /// - Parameters:
    ///   - start: seconds to start the first episode at (default: where it was left).
    ///   - limit: seconds of audio to play in all (`--for`).
    func run(
        _ playlist: [Episode], from start: Double?, limit: Double?, engine: PlaybackEngine
    ) throws -> StopReason {
        let signals = listenForSignals()
        defer { for source in signals { source.cancel() } }
        listenForSleep()
        mediaPlayer = listenForMediaControls()
        let server = listenForRemoteControl()
        defer { withExtendedLifetime(server) {} }
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
                display.note("The device '\(alsa.deviceName)' cannot play \(alsa.format.sampleRate) Hz: ALSA resamples it")
            }
        }
        var playing = Playing(engine: engine, remaining: limit, device: device)
        var index = 0
        var startAt = start
        var unplayable: [any Error] = []
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
                try library.markPlayed(episode)
                _ = try library.dequeue(episode)
                display.note("Played #\(episode.id) \(episode.title)")
                index += 1
            case .next:
                index += 1
            case .previous:
                // Before the first episode there is nothing: start this one again.
                if index == 0 { startAt = 0 } else { index -= 1 }
            case .limitReached, .quit, .signal:
                return reason
            }
        }
        if let first = unplayable.first {
            throw CommandFailure(
                description: Formatting.count(unplayable.count, "episode") + " could not be played (see above)",
                exitCode: ExitCode(for: first))
        }
        return .endOfEpisode
    }

    /// What carries over from one episode to the next.
    private struct Playing {
        var engine: PlaybackEngine
        /// Seconds of audio left to play (`--for`).
        var remaining: Double?
        /// Opened for the first episode, reopened when the format changes or after it was lost.
        let device: AudioDevice
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
        decoder.seek(toFrame: try startFrame(of: episode, decoder: decoder, requested: requested))
        findArtwork(of: episode, playing: decoder.path)
        let rate = Double(decoder.format.sampleRate)
        let player = Player(
            decoder: decoder, device: playing.device, commands: commands, engine: playing.engine,
            limit: playing.remaining.map { Int(($0 * rate).rounded()) })
        let reason = try run(player, for: episode)
        playing.engine = PlaybackEngine(volume: player.engine.volume)
        playing.remaining = playing.remaining.map { $0 - Double(player.framesPlayed) / rate }
        if reason == .endOfEpisode, let failure = stream?.failure {
            try save(player.position, of: episode, sampleRate: decoder.format.sampleRate)
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
        return try stream.openDecoder(stoppingWhen: { commands.isStopPending }, note: { display.note($0) }).map {
            ($0, stream)
        }
    }

    /// Downloads started by this session, by episode.
    private var streams: [Int: EpisodeStream] = [:]

    /// Errors that are the episode's own (its file, its download), not the device's, the
    /// library's or the command line's.
    private static func isTheEpisodesFault(_ error: any Error) -> Bool {
        if let failure = error as? CommandFailure { return failure.exitCode != .usage }
        return error is DecoderError || error is DownloadError
    }

    /// Runs the player on one episode, saving its position as it goes and whatever way it stops.
    private func run(_ player: Player, for episode: Episode) throws -> StopReason {
        let podcast = try episode.feedID.flatMap { try library.feed(id: $0) }?.title
        var lastSave = DispatchTime.now()
        do {
            let reason = try player.play { status in
                if status.event == .redraw { takeTerminalIfForeground() }
                let duration = status.duration ?? episode.durationMilliseconds.map { Double($0) / 1000 }
                let artworkPath = artwork.path(of: episode.id)
                board.post(
                    NowPlayingReport(
                        state: status.state.description, id: episode.id, title: episode.title, podcast: podcast,
                        position: status.seconds, duration: duration, volume: status.volume, artwork: artworkPath))
                showOnMediaControls(status, of: episode, podcast: podcast, duration: duration, artwork: artworkPath)
                display.show(status, of: episode, podcast: podcast)
                if display.stdoutClosed { commands.post(.quit) }
                let now = DispatchTime.now()
                if status.event != nil
                    || now.uptimeNanoseconds - lastSave.uptimeNanoseconds >= UInt64(Self.saveInterval * 1e9)
                {
                    lastSave = now
                    try? save(status.position, of: episode, sampleRate: status.sampleRate)
                }
                if case .suspending = status.event { suspend() }
            }
            return reason
        } catch {
            try? save(player.position, of: episode, sampleRate: player.format.sampleRate)
            throw error
        }
    }

    private func save(_ frame: Int, of episode: Episode, sampleRate: Int) throws {
        try library.setPlaybackState(
            PlaybackState(positionMilliseconds: frame * 1000 / sampleRate, played: false), of: episode)
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

    /// Where to start: `requested`, else where the episode was left (the start once played, or
    /// when it was left at its very end).
    private func startFrame(of episode: Episode, decoder: any AudioDecoder, requested: Double?) throws -> Int {
        let length = decoder.frameCount
        if let requested {
            let frame = Int((requested * Double(decoder.format.sampleRate)).rounded())
            if let length, frame >= length {
                throw CommandFailure(
                    description: "--from \(NowPlayingLine.clock(requested)) is past the end of #\(episode.id) "
                        + "(\(NowPlayingLine.clock(Double(length) / Double(decoder.format.sampleRate))))",
                    exitCode: .usage)
            }
            return frame
        }
        let state = try library.playbackState(of: episode)
        guard !state.played else { return 0 }
        let frame = state.positionMilliseconds * decoder.format.sampleRate / 1000
        if let length, frame >= length { return 0 }
        return frame
    }

    /// SIGINT, SIGTERM and SIGHUP stop the player, which saves the position first; SIGWINCH
    /// redraws the now-playing line at the new width.
    private func listenForSignals() -> [any DispatchSourceSignal] {
        let commands = commands
        let meanings: [(Int32, PlayerCommand)] = [
            (SIGINT, .signal(SIGINT)), (SIGTERM, .signal(SIGTERM)), (SIGHUP, .signal(SIGHUP)), (SIGWINCH, .redraw),
            // Ctrl-Z is an interruption: the player pauses and saves, then `suspend()` stops
            // the process. SIGCONT (after Ctrl-Z, or after a SIGSTOP from outside) ends it.
            (SIGTSTP, .interruptionBegan(.suspend)), (SIGCONT, .interruptionEnded(.suspend, shouldResume: true)),
            (SIGCONT, .redraw),
        ]
        return meanings.map { number, command in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { commands.post(command) }
            source.resume()
            return source
        }
    }

    /// The control socket (`podcli status`, `pause`, ...). Another player answering there already
    /// leaves this one without remote control: said once, not an error.
    private func listenForRemoteControl() -> ControlServer? {
        let board = board
        let commands = commands
        do {
            let server = try ControlServer(path: controlSocket) { request in board.answer(request, commands: commands) }
            server.start()
            return server
        } catch {
            display.warn("warning: \(error); this one takes no remote commands")
            return nil
        }
    }

    /// The episode's place in the playlist (for the media controls' next and previous).
    private var place = (index: 0, count: 1)
    /// The player on the session bus, when there is one (MPRIS).
    private var mediaPlayer: MediaPlayer2?

    /// MPRIS on the session bus, when there is one: media keys, desktop lock screens, playerctl.
    private func listenForMediaControls() -> MediaPlayer2? {
        let commands = commands
        let player = MediaPlayer2 { control in
            switch control {
            case .play: commands.post(.resume)
            case .pause: commands.post(.pause)
            case .playPause: commands.post(.togglePause)
            case .stop, .quit: commands.post(.quit)
            case .next: commands.post(.next)
            case .previous: commands.post(.previous)
            case .seek(let microseconds): commands.post(.seek(by: Double(microseconds) / 1e6))
            case .setPosition(let microseconds): commands.post(.setPosition(Double(microseconds) / 1e6))
            case .volume(let percent): commands.post(.setVolume(percent))
            }
        }
        player?.start()
        return player
    }

    private func showOnMediaControls(
        _ status: PlayerStatus, of episode: Episode, podcast: String?, duration: Double?, artwork: String?
    ) {
        guard let mediaPlayer else { return }
        mediaPlayer.show(
            MediaState(
                status: status.state == .playing ? .playing : .paused, trackNumber: episode.id, title: episode.title,
                album: podcast, url: episode.sourceURL, artURL: artwork.map(EpisodeArtwork.fileURL),
                length: duration.map { Int64($0 * 1e6) },
                volume: status.volume, canGoNext: place.index + 1 < place.count, canGoPrevious: true))
        let microseconds = Int64(status.seconds * 1e6)
        if case .seeked? = status.event {
            mediaPlayer.seeked(to: microseconds)
        } else {
            mediaPlayer.setPosition(microseconds)
        }
    }

    /// logind's PrepareForSleep, when there is a system bus: the system going to sleep is an
    /// interruption, waking up ends it.
    private func listenForSleep() {
        let commands = commands
        SleepWatcher { sleeping in
            commands.post(
                sleeping ? .interruptionBegan(.systemSleep) : .interruptionEnded(.systemSleep, shouldResume: true))
        }?.start()
    }

    /// Cards whose headphone jacks are watched.
    private var watchedCards: Set<Int> = []

    /// The headphone jacks of the card a device plays on, when it is a card that has them:
    /// unplugged is the old device becoming unavailable, plugged in a new one available.
    private func watchJacks(of output: any AudioOutput) {
        guard let card = (output as? ALSAOutput)?.card, watchedCards.insert(card).inserted else { return }
        let commands = commands
        JackWatcher(device: "hw:\(card)") { element, plugged in
            commands.post(
                .routeChanged(plugged ? .newDeviceAvailable : .oldDeviceUnavailable(reason: "\(element): unplugged")))
        }?.start()
    }

    /// Stops the process for Ctrl-Z, once the player has paused and the position is saved: the
    /// terminal goes back to the shell as it was, and comes back to raw mode on SIGCONT.
    private func suspend() {
        display.finish()
        terminal?.restore()
        kill(getpid(), SIGSTOP)
        // Continued, by `fg` or by `bg`.
        takeTerminalIfForeground()
    }

    /// Raw mode for the keys, when podcli is the terminal's foreground job.
    private func takeTerminalIfForeground() {
        guard let terminal, !terminal.isRaw, !Self.isInBackground else { return }
        try? terminal.enterRaw()
    }

    /// Whether podcli is a background job of the terminal it was started from (a terminal that
    /// is not its controlling terminal has no foreground to speak of).
    private static var isInBackground: Bool {
        let foreground = tcgetpgrp(STDIN_FILENO)
        return foreground > 0 && foreground != getpgrp()
    }

    /// Reads keys from the terminal on a thread of their own, for as long as the process lives.
    private func readKeys() {
        let commands = commands
        let keymap = keymap
        // A queue of its own gets a thread of its own: read(2) blocks for as long as the process
        // lives, and must not hold a thread the global queues (and so the signal handlers) share.
        DispatchQueue(label: "podcli.keys").async {
            var decoder = KeyDecoder()
            var bytes = [UInt8](repeating: 0, count: 64)
            var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            while true {
                // In the background, input is not ours: look again later (SIGTTIN is ignored,
                // so a read that races a `bg` fails instead of stopping the process).
                guard poll(&input, 1, 250) > 0 else { continue }
                guard !PlaySession.isInBackground else {
                    usleep(250_000)
                    continue
                }
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                if count < 0 && (errno == EINTR || errno == EIO || errno == EAGAIN) { continue }
                guard count > 0 else { return }
                for key in decoder.decode(bytes[..<count]) {
                    if let command = keymap.command(for: key) { commands.post(command) }
                }
            }
        }
    }
}

/// What each key does while playing.
struct Keymap: Sendable {
    var skipBack: Double
    var skipForward: Double

    func command(for key: Key) -> PlayerCommand? {
        switch key {
        case .space: return .togglePause
        case .left: return .seek(by: -skipBack)
        case .right: return .seek(by: skipForward)
        case .character(","): return .seek(by: -5)
        case .character("."): return .seek(by: 5)
        case .up: return .changeVolume(by: 5)
        case .down: return .changeVolume(by: -5)
        case .character("n"): return .next
        case .character("p"): return .previous
        case .character("m"): return .markPlayed
        case .character("q"): return .quit
        default: return nil
        }
    }
}

extension PlayerCommand {
    fileprivate var signalNumber: Int32? {
        if case .signal(let number) = self { return number }
        return nil
    }
}
