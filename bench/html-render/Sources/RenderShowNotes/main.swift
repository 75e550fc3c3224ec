// Usage: RenderShowNotes ROUNDS OUTPUT FEED...
// Parses the feeds (untimed), then renders every description (the feed's and each item's) to 78
// columns ROUNDS times; prints the median round, the peak RSS before and after rendering, and
// writes the rendered text to OUTPUT (to compare two builds' output).
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
var rendered: [String] = []
var times: [Duration] = []
let clock = ContinuousClock()
for _ in 0..<rounds {
    var round: [String] = []
    round.reserveCapacity(descriptions.count)
    times.append(clock.measure { for text in descriptions { round.append(PlainText.render(html: text, width: 78)) } })
    rendered = round
}
let rssAfter = peakRSSKiB()
times.sort()
let median = times[times.count / 2]
let milliseconds = Double(median.components.attoseconds) / 1e15 + Double(median.components.seconds) * 1000
print("descriptions \(descriptions.count), \(bytes) bytes; median round \(milliseconds) ms over \(rounds) rounds")
print("peak RSS \(rssBefore) KiB after parsing, \(rssAfter) KiB after rendering")
let output = rendered.joined(separator: "\n\u{1E}\n")
guard let file = fopen(arguments[2], "w") else { exit(74) }
fputs(output, file)
fclose(file)
