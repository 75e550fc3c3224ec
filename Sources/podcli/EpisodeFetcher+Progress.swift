import EpisodeStore
import PodcliKit

extension EpisodeFetcher {
    /// `fetch(_:onStart:)` with a progress bar on stderr (drawn only on a terminal) and a note for
    /// each retry: how `fetch`, `download` and `verify --repair` show a download.
    func fetch(_ episode: Episode, showingProgressOn output: Output, onStart: () -> Void = {}) throws -> EpisodeFile {
        var fetcher = self
        let bar = ProgressBar(output: output, label: "#\(episode.id)")
        fetcher.onEvent = { event in
            switch event {
            case .progress(let received, let total): bar.update(received: received, total: total)
            case .retrying(let message):
                bar.finish()
                output.note(message)
            case .ended: bar.finish()
            case .warning(let line): output.note("warning: " + line)
            }
        }
        return try fetcher.fetch(episode, onStart: onStart)
    }
}
