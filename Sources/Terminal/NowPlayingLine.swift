import Strings

/// Draws the player's status as one terminal line, in the spirit of a phone's lock screen:
///
///     ▶ Podcast (Author) — Title  12:34 / 45:00 [=====>----] vol 80% sleep 14:59
///
/// The rate, when it is not 1, follows the state (`▶ 1.5×`); the sleep timer, when there is one,
/// comes last (`sleep 14:59`, `sleep at end`). The author is left out when it is the podcast's
/// name, and stands in for the name when there is none. What is kept when the line is narrow,
/// first to last: state and times (the duration goes before the state is cut), then the title
/// (cut with "…", at least 4 letters), the sleep timer, the volume, the progress bar (at least 5
/// cells), the podcast's name, the author. Room left over widens the title, then the podcast's
/// name, then the author, then the bar (up to 30 cells). A live stream (no duration) shows no
/// duration and no bar.
public enum NowPlayingLine {
    /// The line for `info`, never wider than `columns` (see `DisplayWidth`), with no newline and no
    /// escape codes: control characters in the texts become spaces. The caller redraws it in place
    /// with "\r\u{1B}[K" before it.
    public static func render(_ info: NowPlaying, columns: Int) -> String {
        guard columns > 0 else { return "" }
        let title = printable(info.title)
        var podcast = printable(info.podcast ?? "")
        var author = printable(info.author ?? "")
        if podcast.isEmpty || author == podcast { (podcast, author) = (author, "") }
        let volume = "vol \(min(max(info.volume, 0), 100))%"
        // Progress needs a length: none for a live stream.
        let length = info.duration.flatMap { $0 > 0 ? $0 : nil }

        let head = core(info, columns: columns)
        var room = columns - DisplayWidth.of(head.state) - (head.times.isEmpty ? 0 : 1 + DisplayWidth.of(head.times))

        // Reserve each part's smallest useful size, in priority order: a part that does not fit is
        // dropped, and parts after it may still fit.
        let titleWidth = DisplayWidth.of(title)
        // The title outranks everything after it, so it takes less than its minimum rather than
        // give way, down to a few letters.
        var titleColumns = min(titleWidth, minimumTitle, room - separator.count)
        if titleColumns >= min(titleWidth, 5), titleColumns > 0 {
            room -= separator.count + titleColumns
        } else {
            titleColumns = 0
        }
        let sleep = info.sleep.map(sleepLeft)
        let showSleep = sleep.map { room >= 1 + DisplayWidth.of($0) } ?? false
        if let sleep, showSleep { room -= 1 + DisplayWidth.of(sleep) }
        let showVolume = room >= 1 + DisplayWidth.of(volume)
        if showVolume { room -= 1 + DisplayWidth.of(volume) }
        var barCells = 0
        if length != nil, room >= 1 + 2 + minimumBar {
            barCells = minimumBar
            room -= 1 + 2 + minimumBar
        }
        let podcastWidth = DisplayWidth.of(podcast)
        var podcastColumns = 0
        if titleColumns > 0, podcastWidth > 0, room >= dash.count + min(podcastWidth, minimumPodcast) {
            podcastColumns = min(podcastWidth, minimumPodcast)
            room -= dash.count + podcastColumns
        }
        let authorWidth = DisplayWidth.of(author)
        var authorColumns = 0
        if podcastColumns > 0, authorWidth > 0, room >= 3 + min(authorWidth, minimumPodcast) {
            authorColumns = min(authorWidth, minimumPodcast)
            room -= 3 + authorColumns
        }

        // Share what is left.
        if titleColumns > 0 { grow(&titleColumns, to: titleWidth, from: &room) }
        if podcastColumns > 0 { grow(&podcastColumns, to: podcastWidth, from: &room) }
        if authorColumns > 0 { grow(&authorColumns, to: authorWidth, from: &room) }
        if barCells > 0 { grow(&barCells, to: maximumBar, from: &room) }

        var line = head.state
        if titleColumns > 0 {
            line += " "
            if podcastColumns > 0 {
                line += DisplayWidth.fit(podcast, columns: podcastColumns)
                if authorColumns > 0 { line += " (" + DisplayWidth.fit(author, columns: authorColumns) + ")" }
                line += dash
            }
            line += DisplayWidth.fit(title, columns: titleColumns) + " "
        }
        if !head.times.isEmpty { line += " " + head.times }
        if let length, barCells > 0 { line += " " + bar(fraction: info.elapsed / length, cells: barCells) }
        if showVolume { line += " " + volume }
        if let sleep, showSleep { line += " " + sleep }
        // Never wider than asked, whatever the arithmetic above missed.
        return DisplayWidth.fit(line, columns: columns)
    }

    /// Seconds as M:SS under an hour and H:MM:SS from an hour on, rounded down; negative or
    /// non-finite seconds show as 0:00.
    public static func clock(_ seconds: Double) -> String {
        // The upper bound keeps the Int conversion from trapping on absurd values.
        let total = seconds.isFinite && seconds > 0 ? Int(min(seconds, 1e12).rounded(.down)) : 0
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }

    /// A playback rate as the line and `status` show it: `1.5×`, `0.75×`, `2×` (to 0.01).
    public static func rate(_ rate: Double) -> String {
        guard rate.isFinite, rate > 0 else { return "?×" }
        var text = String(Int((min(rate, 1e6) * 100).rounded()))
        while text.count < 3 { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -2))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "×"
    }

    /// `sleep 14:59`, or `sleep at end`.
    private static func sleepLeft(_ sleep: NowPlaying.Sleep) -> String {
        switch sleep {
        case .seconds(let seconds): return "sleep " + clock(seconds.rounded(.up))
        case .endOfEpisode: return "sleep at end"
        }
    }

    /// Between the title and the times; two spaces set the times apart from a title with spaces.
    private static let separator = "  "
    private static let dash = " — "
    private static let minimumTitle = 12
    private static let minimumPodcast = 8
    private static let minimumBar = 5
    private static let maximumBar = 30

    /// The state and the times: the part that is always shown, as much of it as fits.
    private static func core(_ info: NowPlaying, columns: Int) -> (state: String, times: String) {
        var state: String
        switch info.state {
        case "playing": state = "▶"
        case "paused": state = "⏸"
        default: state = printable(info.state)
        }
        if info.rate != 1 { state += " " + rate(info.rate) }
        let elapsed = clock(info.elapsed)
        // A live stream has no duration to show.
        let candidates = info.duration.map { ["\(elapsed) / \(clock($0))", elapsed] } ?? [elapsed]
        let stateWidth = DisplayWidth.of(state)
        if let times = candidates.first(where: { stateWidth + 1 + DisplayWidth.of($0) <= columns }) {
            return (state, times)
        }
        // Cut the state's words rather than lose the time, while at least one letter and "…" fit.
        let room = columns - 1 - DisplayWidth.of(elapsed)
        if room >= 2 { return (DisplayWidth.fit(state, columns: room), elapsed) }
        return (DisplayWidth.fit(state, columns: columns), "")
    }

    /// `[=====>----]`: `cells` cells between the brackets, filled to the played fraction.
    private static func bar(fraction: Double, cells: Int) -> String {
        let played = fraction.isFinite ? Int((min(max(fraction, 0), 1) * Double(cells)).rounded(.down)) : 0
        if played >= cells { return "[" + String(repeating: "=", count: cells) + "]" }
        let rest = String(repeating: "-", count: cells - played - 1)
        return "[" + String(repeating: "=", count: played) + ">" + rest + "]"
    }

    private static func grow(_ columns: inout Int, to wanted: Int, from room: inout Int) {
        let extra = min(max(wanted - columns, 0), room)
        columns += extra
        room -= extra
    }

    /// The text with every control character (newlines, tabs, ESC, C1, bidirectional overrides)
    /// turned into a space, so nothing in a feed's title can move the cursor or change colours:
    /// podcli's one rule for printed text (`PrintableText`).
    private static func printable(_ text: String) -> String {
        PrintableText.line(text)
    }
}
