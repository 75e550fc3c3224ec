// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "podcli",
    products: [
        .executable(name: "podcli", targets: ["podcli"]),
        // For the fuzzing package in fuzz/, which builds the parsers with libFuzzer.
        .library(name: "Feeds", targets: ["Feeds"]),
        .library(name: "AudioFormats", targets: ["AudioFormats"]),
    ],
    targets: [
        // C modules: thin headers (and shims for what Swift cannot call) over Debian's libraries.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "CSystem"),
        // libxml2's headers live in /usr/include/libxml2, so pkg-config supplies the -I flag.
        .systemLibrary(name: "CXML", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev", "pkg-config"])]),
        .target(name: "CXMLShim", dependencies: ["CXML"]),
        .target(name: "CMPG123", linkerSettings: [.linkedLibrary("mpg123")]),
        .target(name: "CALSA", linkerSettings: [.linkedLibrary("asound")]),
        // Small, and needing nothing but libc and libm: linked, not loaded.
        .target(name: "CSonic", linkerSettings: [.linkedLibrary("sonic")]),
        .target(name: "CEBUR128", linkerSettings: [.linkedLibrary("ebur128")]),
        .target(name: "CSDBus", linkerSettings: [.linkedLibrary("systemd")]),
        .target(name: "CMPRIS", linkerSettings: [.linkedLibrary("systemd")]),
        .target(name: "CNotify", linkerSettings: [.linkedLibrary("systemd")]),
        .target(name: "CGD"),
        // FFmpeg's headers only: its libraries are loaded (dlopen) when first needed.
        .target(name: "CFFmpeg"),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),

        // Build-time embedding of Migrations/*.sql into the EpisodeStore module.
        .executableTarget(name: "EmbedSQL"),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["EmbedSQL"]),

        // Swift modules.
        .target(name: "Digest", dependencies: ["CCrypto"]),
        // The few String operations Foundation has and FoundationEssentials lacks.
        .target(name: "Strings"),
        .target(name: "Arguments"),
        // Deflate and inflate (zlib): the library's store of transcripts' text.
        .target(name: "Zlib", dependencies: ["CZlib"]),
        .target(
            name: "EpisodeStore", dependencies: ["CSQLite", "Digest", "Strings", "Zlib"],
            plugins: ["EmbedMigrations"]),
        // Threads that stop when asked and are joined: every thread a command starts ends before it returns.
        .target(name: "Threads", dependencies: ["CSystem"]),
        // What a file is from its bytes: the audio sniffer, container checks, embedded pictures and chapters.
        .target(name: "AudioFormats", dependencies: ["Chapters"]),
        .target(name: "Downloads", dependencies: ["AudioFormats", "CCurl", "CSystem", "Digest", "Strings", "Threads"]),
        // The exchange with a gpodder.net-API sync server (mygpo API 2, or Nextcloud's gPodder Sync app).
        .target(name: "GPodderSync", dependencies: ["Downloads", "Strings", "Threads"]),
        // An episode's chapters from every source, in one table.
        .target(name: "Chapters"),
        // An HTML document (show notes, an HTML transcript) as libxml2's HTML parser reads it.
        .target(name: "HTML", dependencies: ["CXML", "CXMLShim", "Strings"]),
        .target(name: "Feeds", dependencies: ["Chapters", "CXML", "CXMLShim", "HTML", "Strings"]),
        // An episode's transcript from the file a feed offers: JSON, WebVTT, SRT, HTML or plain text.
        .target(name: "Transcripts", dependencies: ["HTML", "Strings"]),
        .target(
            name: "Playback",
            dependencies: ["AudioFormats", "CMPG123", "CFFmpeg", "CALSA", "CSonic", "CEBUR128", "Threads"]),
        // Podcast directories (the iTunes Search API, Podcast Index) and the podcast links that name a feed.
        .target(name: "PodcastDirectory", dependencies: ["Digest", "Downloads", "Strings"]),
        .target(name: "Terminal", dependencies: ["CSystem", "Strings"]),
        .target(name: "AudioSession", dependencies: ["CSDBus", "CALSA", "Threads"]),
        .target(name: "RemoteControl", dependencies: ["CSystem", "CMPRIS", "Threads"]),
        .target(name: "DesktopNotifications", dependencies: ["CNotify"]),
        .target(name: "Artwork", dependencies: ["CGD"]),
        // The application layer: subscriptions, episodes, sync, the play session, configuration,
        // notices. No command line in it: the executable holds the commands and their output.
        .target(
            name: "PodcliKit",
            dependencies: [
                "AudioFormats", "Chapters", "EpisodeStore", "Downloads", "Feeds", "Playback", "PodcastDirectory",
                "Strings", "Terminal", "AudioSession", "RemoteControl", "DesktopNotifications", "Threads", "CSystem",
                "GPodderSync", "Transcripts",
            ]),
        .executableTarget(
            name: "podcli",
            dependencies: [
                "Arguments", "PodcliKit", "Chapters", "EpisodeStore", "Downloads", "Feeds", "Playback",
                "PodcastDirectory", "Strings", "Terminal", "RemoteControl", "DesktopNotifications", "Artwork",
                "GPodderSync", "Threads", "Transcripts",
            ]),

        // Tests mirror the modules. TestSupport holds the loopback HTTP server with fault modes,
        // temporary directories and the runner for the built podcli executable.
        .target(
            name: "TestSupport", path: "Tests/Support",
            exclude: [
                "fault_server.py", "notification_server.py", "gpodder_server.py", "sync_dialect_server.py",
                "directory_server.py",
            ]),
        .testTarget(name: "ArgumentsTests", dependencies: ["Arguments", "TestSupport"]),
        .testTarget(name: "StringsTests", dependencies: ["Strings"]),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"]),
        .testTarget(name: "ZlibTests", dependencies: ["Zlib"]),
        // CSQLite: a test holds locks with a bare connection, as another process would; Feeds: media keys
        // as a feed's items and a sync server's actions get them (TrackingPrefix).
        .testTarget(name: "EpisodeStoreTests", dependencies: ["EpisodeStore", "Digest", "CSQLite", "Feeds"]),
        .testTarget(name: "AudioFormatsTests", dependencies: ["AudioFormats", "Chapters", "TestSupport"]),
        .testTarget(name: "DownloadsTests", dependencies: ["Downloads", "TestSupport", "Threads"]),
        .testTarget(name: "GPodderSyncTests", dependencies: ["GPodderSync", "Downloads", "TestSupport"]),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds", "TestSupport"]),
        .testTarget(name: "PodcastDirectoryTests", dependencies: ["PodcastDirectory", "Downloads", "TestSupport"]),
        .testTarget(name: "ChaptersTests", dependencies: ["Chapters"]),
        .testTarget(name: "HTMLTests", dependencies: ["HTML"]),
        .testTarget(name: "TranscriptsTests", dependencies: ["Transcripts", "Strings", "TestSupport"]),
        // CMPG123: libmpg123's own picture reader is the reference for the embedded pictures of the corpus.
        .testTarget(
            name: "PlaybackTests", dependencies: ["Playback", "AudioFormats", "CMPG123", "TestSupport", "Threads"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
        .testTarget(name: "AudioSessionTests", dependencies: ["AudioSession", "TestSupport"]),
        .testTarget(name: "RemoteControlTests", dependencies: ["RemoteControl", "TestSupport"]),
        .testTarget(name: "DesktopNotificationsTests", dependencies: ["DesktopNotifications", "TestSupport"]),
        .testTarget(name: "ArtworkTests", dependencies: ["Artwork", "TestSupport"]),
        .testTarget(
            name: "PodcliKitTests",
            dependencies: [
                "PodcliKit", "TestSupport", "Chapters", "Downloads", "EpisodeStore", "Feeds", "Playback", "Threads",
                "Transcripts",
            ]),
        .testTarget(
            name: "podcliTests",
            dependencies: ["podcli", "TestSupport", "EpisodeStore", "Transcripts", "PodcliKit", "Terminal"]),
    ]
)
