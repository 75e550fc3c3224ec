import EpisodeStore
import Playback

/// Where a play session shows what is playing: the executable's now-playing line on a terminal,
/// or one plain line per event; every call comes from the player's thread.
public protocol PlayDisplay: AnyObject {
    /// The player's status, on every event and periodically. `podcast` is the feed's title;
    /// `author` the episode's author, else the feed's; `chapter` names the chapter being heard.
    func show(_ status: PlayerStatus, of episode: Episode, podcast: String?, author: String?, chapter: String?)
    /// The cue being spoken (`t`), drawn under the now-playing line; nil hides it.
    func showCue(_ line: String?)
    /// A line to read in passing ("Played #3 ...", "Streaming #4 ...").
    func note(_ text: String)
    /// A line about something that went wrong but did not stop playing.
    func warn(_ text: String)
    /// The session is ending, or suspending: leave the terminal on a clean line.
    func finish()
    /// True once the reader of the display went away (`podcli play | head -1`): the session then
    /// stops as `q` stops it, saving.
    var readerGone: Bool { get }
}

extension PlayDisplay {
    public func showCue(_ line: String?) {}
}
