// swift-tools-version:6.0
// Fuzzing for podcli's feed parser and audio readers (sniffer, container checks, tags) with libFuzzer. A package of its own, so that a plain
// `swift build` of podcli never needs libFuzzer's runtime. Run with fuzz/run.sh.
import PackageDescription

let package = Package(
    name: "podcli-fuzz",
    dependencies: [.package(name: "podcli", path: "..")],
    targets: [
        // Declares libFuzzer's driver, which the top-level code calls (SwiftPM's own entry
        // point replaces libFuzzer's main).
        .target(name: "CFuzz"),
        .executableTarget(name: "FuzzFeeds", dependencies: ["CFuzz", .product(name: "Feeds", package: "podcli")]),
        .executableTarget(
            name: "FuzzAudio", dependencies: ["CFuzz", .product(name: "AudioFormats", package: "podcli")]),
    ]
)
