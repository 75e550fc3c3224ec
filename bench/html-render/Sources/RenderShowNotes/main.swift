// Usage: RenderShowNotes ROUNDS OUTPUT FEED...
// Parses the feeds (untimed), then renders every description (the feed's and each item's) ROUNDS
// times unwrapped and ROUNDS times wrapped to 78 columns (as `show` does); prints the median
// round's CPU time of each, the peak RSS before and after rendering, and writes the wrapped text
// to OUTPUT (to compare two builds' output).
import Feeds
import Glibc

func peakRSSKiB() -> Int {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let rounds = Int(arguments[1]), rounds > 0 else {
    print("usage: RenderShowNotes ROUNDS OUTPUT FEED...")
    exit(64)
}
var descriptions: [String] = []
for path in arguments[3...] {
    guard let feed = try? FeedParser(baseURL: "https://example.com/").parse(contentsOf: path) else { continue }
    descriptions += [feed.description].compactMap { $0 } + feed.items.compactMap(\.description)
}
let bytes = descriptions.reduce(0) { $0 + $1.utf8.count }
let rssBefore = peakRSSKiB()

/// This thread's CPU time: a loaded machine's waiting is not the renderer's work.
func cpuTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

func milliseconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    return String(Int(value.rounded()))
}

/// The median CPU time of rendering every description `rounds` times, and the last round's text.
@MainActor func measure(width: Int?) -> (Duration, [String]) {
    var rendered: [String] = []
    var times: [Duration] = []
    for _ in 0..<rounds {
        var round: [String] = []
        round.reserveCapacity(descriptions.count)
        let start = cpuTime()
        for text in descriptions { round.append(PlainText.render(html: text, width: width)) }
        times.append(cpuTime() - start)
        rendered = round
    }
    return (times.sorted()[rounds / 2], rendered)
}

let (unwrapped, _) = measure(width: nil)
let (wrapped, rendered) = measure(width: 78)
let rssAfter = peakRSSKiB()
print("descriptions \(descriptions.count), \(bytes) bytes; median of \(rounds) rounds, CPU time:")
print("  HTML to text      \(milliseconds(unwrapped)) ms")
print("  and wrapped at 78 \(milliseconds(wrapped)) ms")
print("peak RSS \(rssBefore) KiB after parsing the feeds, \(rssAfter) KiB after rendering")
let output = rendered.joined(separator: "\n\u{1E}\n")
guard let file = fopen(arguments[2], "w") else { exit(74) }
fputs(output, file)
fclose(file)
