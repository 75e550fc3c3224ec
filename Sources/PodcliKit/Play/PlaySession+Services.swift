import AudioSession
import Dispatch
import EpisodeStore
import Playback
import RemoteControl
import Terminal
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// What a session listens to besides the player (signals, the control socket, MPRIS, logind's
/// sleep, headphone jacks, the keys) and the terminal it runs in. Each thread started here is
/// a `ServiceThread` whose stop is kept in `services`, for `stopThreads`.
extension PlaySession {
    /// SIGINT, SIGTERM and SIGHUP stop the player, which saves the position first; SIGWINCH
    /// redraws the now-playing line at the new width.
    /// - Returns: what stops listening and gives each signal back the disposition it had (one
    ///   left ignored would be inherited, ignored, by every process started after).
    public func listenForSignals() -> () -> Void {
        let commands = commands
        let meanings: [(Int32, PlayerCommand)] = [
            (SIGINT, .signal(SIGINT)), (SIGTERM, .signal(SIGTERM)), (SIGHUP, .signal(SIGHUP)), (SIGWINCH, .redraw),
            // Ctrl-Z is an interruption: the player pauses and saves, then `suspend()` stops
            // the process. SIGCONT (after Ctrl-Z, or after a SIGSTOP from outside) ends it.
            (SIGTSTP, .interruptionBegan(.suspend)), (SIGCONT, .interruptionEnded(.suspend, shouldResume: true)),
            (SIGCONT, .redraw),
        ]
        let previous = Set(meanings.map(\.0)).map { number in
            var disposition = sigaction()
            sigaction(number, nil, &disposition)
            return (number, disposition)
        }
        let sources = meanings.map { number, command in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { commands.post(command) }
            source.resume()
            return source
        }
        return {
            for source in sources { source.cancel() }
            for (number, var disposition) in previous { sigaction(number, &disposition, nil) }
        }
    }

    /// The control socket (`podcli status`, `pause`, ...). Another player answering there already
    /// leaves this one without remote control: said once, not an error, unless it is a player in
    /// the background (then the error is its exit).
    public func listenForRemoteControl() throws -> ControlServer? {
        let board = board
        let commands = commands
        do {
            let server = try ControlServer(path: controlSocket) { request in board.answer(request, commands: commands) }
            server.start()
            return server
        } catch {
            if requiresRemoteControl { throw error }
            display.warn("warning: \(error); this one takes no remote commands")
            return nil
        }
    }

    /// MPRIS on the session bus, when there is one: media keys, desktop lock screens, playerctl.
    public func listenForMediaControls() -> MediaPlayer2? {
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
            case .rate(let rate): commands.post(.setSpeed(rate))
            }
        }
        player?.start()
        return player
    }

    public func showOnMediaControls(
        _ status: PlayerStatus, of episode: Episode, podcast: String?, author: String?, duration: Double?,
        artwork: String?, chapter: String?
    ) {
        guard let mediaPlayer else { return }
        // MPRIS has no field for a chapter: it is in the title, as many players put it there.
        let title = chapter.map { NowPlayingChapter.title(episode.title, chapter: $0) } ?? episode.title
        mediaPlayer.show(
            MediaState(
                status: status.state == .playing ? .playing : .paused, trackNumber: episode.id, title: title,
                album: podcast, artist: author, url: episode.sourceURL, artURL: artwork.map(EpisodeArtwork.fileURL),
                length: duration.flatMap(Self.microseconds),
                volume: status.volume, rate: status.speed, canGoNext: place.index + 1 < place.count,
                canGoPrevious: true))
        let microseconds = Self.microseconds(status.seconds) ?? 0
        if case .seeked? = status.event {
            mediaPlayer.seeked(to: microseconds)
        } else {
            mediaPlayer.setPosition(microseconds)
        }
    }

    /// `seconds` in MPRIS's microseconds; nil for a time no Int64 holds (a length a stream still
    /// arriving guessed wildly), which converting would trap on.
    static func microseconds(_ seconds: Double) -> Int64? {
        Int64(exactly: (seconds * 1e6).rounded())
    }

    /// logind's PrepareForSleep, when there is a system bus: the system going to sleep is an
    /// interruption, waking up ends it.
    public func listenForSleep() -> SleepWatcher? {
        let commands = commands
        let watcher = SleepWatcher { sleeping in
            commands.post(
                sleeping ? .interruptionBegan(.systemSleep) : .interruptionEnded(.systemSleep, shouldResume: true))
        }
        watcher?.start()
        return watcher
    }

    /// The headphone jacks of the card a device plays on, when it is a card that has them:
    /// unplugged is the old device becoming unavailable, plugged in a new one available.
    public func watchJacks(of output: any AudioOutput) {
        guard let card = (output as? ALSAOutput)?.card, watchedCards.insert(card).inserted else { return }
        let commands = commands
        guard
            let watcher = JackWatcher(
                device: "hw:\(card)",
                onChange: { element, plugged in
                    commands.post(
                        .routeChanged(
                            plugged ? .newDeviceAvailable : .oldDeviceUnavailable(reason: "\(element): unplugged")))
                })
        else { return }
        watcher.start()
        services.append(watcher.stop)
    }

    /// Stops the process for Ctrl-Z, once the player has paused and the position is saved: the
    /// terminal goes back to the shell as it was, and comes back to raw mode on SIGCONT.
    ///
    /// A stopped process answers nothing: MPRIS clients (`playerctl`) would wait 25 s for each
    /// call, so the player leaves the bus first (they find no player at once) and takes its name
    /// again when continued. The control socket's clients see the stopped process for themselves.
    public func suspend() {
        display.finish()
        terminal?.restore()
        mediaPlayer?.leaveBus()
        kill(getpid(), SIGSTOP)
        // Continued, by `fg` or by `bg`.
        mediaPlayer?.rejoinBus()
        takeTerminalIfForeground()
    }

    /// Raw mode for the keys, when podcli is the terminal's foreground job.
    public func takeTerminalIfForeground() {
        guard let terminal, !terminal.isRaw, !Self.isInBackground else { return }
        try? terminal.enterRaw()
    }

    /// Whether podcli is a background job of the terminal it was started from (a terminal that
    /// is not its controlling terminal has no foreground to speak of).
    public static var isInBackground: Bool {
        let foreground = tcgetpgrp(STDIN_FILENO)
        return foreground > 0 && foreground != getpgrp()
    }

    /// Reads keys from the terminal on a thread of their own, until the session ends.
    public func readKeys() {
        let commands = commands
        let keymap = keymap
        let transcriptKey = transcriptKey
        let reader = ServiceThread(name: "podcli.keys") { stop in
            var decoder = KeyDecoder()
            var bytes = [UInt8](repeating: 0, count: 64)
            var input = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
            // Asleep until a key or the stop: nothing to look at meanwhile. In the background,
            // input is not ours: look again later (SIGTTIN is ignored, so a read that races a
            // `bg` fails instead of stopping the process).
            while stop.wait(for: &input, timeout: nil) {
                guard input[0].revents != 0 else { continue }
                guard !PlaySession.isInBackground else {
                    guard stop.sleep(seconds: 0.25) else { return }
                    continue
                }
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                if count < 0 && (errno == EINTR || errno == EIO || errno == EAGAIN) { continue }
                guard count > 0 else { return }
                for key in decoder.decode(bytes[..<count]) {
                    // The display's own key: shown or hidden at once, by the redraw it asks for.
                    if key == .character("t") {
                        transcriptKey.toggle()
                        commands.post(.redraw)
                    }
                    if let command = keymap.command(for: key) { commands.post(command) }
                }
            }
        }
        services.append(reader.stop)
    }
}
