// swift-tools-version:6.0
// Renders the show notes of the corpus feeds with `PlainText` (bench/html-render.sh): the time a
// user waits for `show`, and the memory it takes. A package of its own, like fuzz/, so podcli's
// build never sees it.
import PackageDescription

let package = Package(
    name: "podcli-html-render",
    dependencies: [.package(name: "podcli", path: "../..")],
    targets: [
        .executableTarget(name: "RenderShowNotes", dependencies: [.product(name: "Feeds", package: "podcli")])
    ]
)
