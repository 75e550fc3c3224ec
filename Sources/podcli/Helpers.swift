import Dispatch
import FoundationEssentials
import PodcliKit
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// The podcli processes the application layer asks for, as command lines of this executable:
/// the one place that knows which hidden command does what.
struct Helpers: HelperProcesses {
    /// `--home` for a podcli started from this one, when this one was given it (absolute: the
    /// helper outlives the caller, whose directory it does not share).
    let homeArguments: [String]
    /// Where a background player's control socket is.
    let controlSocket: String

    init(context: Context) {
        let data = try? context.directories.get().data
        homeArguments = context.home != nil ? data.map { ["--home", $0] } ?? [] : []
        controlSocket = (try? context.directories.get().controlSocket) ?? ""
    }

    /// `notify-new --episodes - --helper`, the episodes on its stdin: the helper waits up to 30
    /// minutes, and its command line is every local user's to read (/proc/PID/cmdline).
    func postNewEpisodes(_ episodes: [DownloadedEpisode]) {
        guard let json = try? JSONEncoder().encode(episodes),
            let input = Descriptor.memoryFile(named: "podcli-new-episodes", holding: Array(json))
        else { return }
        defer { close(input) }
        _ = DetachedProcess.spawn(
            homeArguments + [NotifyNew.spec.name, "--episodes", NotifyNew.standardInput, "--helper"], stdin: input)
    }

    /// `render-artwork -` with the image as its stdin. Stopped while it renders, the caller stops
    /// waiting; the child finishes on its own (its file is written atomically) and is reaped
    /// when the player exits.
    func renderArtwork(from source: Int32, to path: String, mode: mode_t, stop: StopEvent) -> Bool {
        let arguments = [RenderArtwork.spec.name, RenderArtwork.standardInput, path, "--mode", String(mode, radix: 8)]
        guard case .success(let child) = DetachedProcess.spawn(arguments, stdin: source) else { return false }
        var status: Int32 = 0
        while true {
            let reaped = waitpid(child, &status, WNOHANG)
            if reaped == child { break }
            if reaped < 0 && errno != EINTR { return false }
            guard stop.sleep(seconds: 0.01) else { return false }
        }
        // WIFEXITED and WEXITSTATUS are macros Swift cannot import.
        return status & 0x7F == 0 && (status >> 8) & 0xFF == 0
    }

    func playInBackground(episode id: Int) throws {
        try BackgroundPlayer.start(
            arguments: homeArguments + [Play.spec.name, "\(id)"], controlSocket: controlSocket)
    }
}
