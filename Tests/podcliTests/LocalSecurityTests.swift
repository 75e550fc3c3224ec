import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What another user on the machine must never get from podcli: its control directory, a file of
/// ours written through a link they planted, a fake player's words in our `status`, our library.
/// The other user is `nobody`, driven with `runuser` by tests that run as root (CI does); as
/// anyone else those tests skip, but never under `CI=true`.
@Suite struct LocalSecurityTests {
    static let otherUser: uid_t = 65_534  // nobody
    static let asRoot = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")
    static let secondUser = Testing.ConditionTrait.requires(asRoot, "needs root, to act as a second user (nobody)")

    /// A podcli with no `--home`: XDG directories under a HOME of its own, no XDG_RUNTIME_DIR (as
    /// under su, cron or ssh without pam_systemd), and TMPDIR where the control directory then goes.
    struct Plain {
        let root: TemporaryDirectory
        let podcli: PodcliRunner
        var temporary: String { root.path + "/tmp" }
        var controlDirectory: String { temporary + "/podcli-\(getuid())" }

        init() throws {
            root = try TemporaryDirectory(prefix: "podcli-plain")
            podcli = try PodcliRunner()
            try FileManager.default.createDirectory(atPath: root.path + "/tmp", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root.path + "/home", withIntermediateDirectories: true)
        }

        /// Runs podcli, under `umask` when given (through sh, as a login shell or cron would set it).
        func run(_ arguments: [String], umask: String? = nil) throws -> ProcessResult {
            var environment = podcli.childEnvironment(["HOME": root.path + "/home", "TMPDIR": temporary])
            for name in ["XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"] {
                environment[name] = nil
            }
            return try LocalSecurityTests.podcli(podcli, arguments, umask: umask, environment: environment)
        }
    }

    /// The built podcli run with `arguments`, under `umask` when given.
    static func podcli(
        _ podcli: PodcliRunner, _ arguments: [String], umask: String?, environment: [String: String]
    ) throws -> ProcessResult {
        guard let umask else {
            return try RunningProcess(
                executable: podcli.executableURL, arguments: arguments, environment: environment
            ).waitUntilExit(timeout: 30)
        }
        return try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "umask \(umask) && exec \"$@\"", "sh", podcli.executableURL.path] + arguments,
            environment: environment
        ).waitUntilExit(timeout: 30)
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    static func runAsOtherUser(_ arguments: [String]) throws -> RunningProcess {
        try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/sbin/runuser"), arguments: ["-u", "nobody", "--"] + arguments,
            environment: ["PATH": "/usr/bin:/bin"])
    }

    // MARK: - The control directory

    @Test(secondUser) func aControlDirectoryAnotherUserMadeFirstIsRefused() throws {
        let p = try Plain()
        #expect(mkdir(p.controlDirectory, 0o777) == 0 && chmod(p.controlDirectory, 0o777) == 0)
        #expect(chown(p.controlDirectory, Self.otherUser, gid_t(Self.otherUser)) == 0)
        let play = try p.run(["play", "1", "--background"])
        #expect(play.status == 74, "\(play)")
        #expect(
            play.stderr
                == "podcli: cannot use \(p.controlDirectory) for the control socket: it belongs to another user "
                + "(uid 65534); remove it, or set XDG_RUNTIME_DIR to a directory of yours\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: p.controlDirectory).isEmpty)
        #expect(Self.mode(p.controlDirectory) == 0o777)
    }

    @Test func aLinkOrAnOpenDirectoryInItsPlaceIsRefusedAndLeftAlone() throws {
        let p = try Plain()
        let elsewhere = p.root.path + "/elsewhere"
        #expect(mkdir(elsewhere, 0o755) == 0 && chmod(elsewhere, 0o755) == 0)
        #expect(symlink(elsewhere, p.controlDirectory) == 0)
        let linked = try p.run(["play", "1", "--background"])
        #expect(linked.status == 74, "\(linked)")
        #expect(
            linked.stderr.hasSuffix(
                ": it is not a directory (a link?); remove it, or set XDG_RUNTIME_DIR "
                    + "to a directory of yours\n"), "\(linked)")
        #expect(Self.mode(elsewhere) == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)

        #expect(unlink(p.controlDirectory) == 0)
        #expect(mkdir(p.controlDirectory, 0o700) == 0 && chmod(p.controlDirectory, 0o777) == 0)
        let open = try p.run(["play", "1", "--background"])
        #expect(open.status == 74, "\(open)")
        #expect(
            open.stderr.hasSuffix(
                ": other users can write in it (mode 777); remove it, or set "
                    + "XDG_RUNTIME_DIR to a directory of yours\n"), "\(open)")
        #expect(Self.mode(p.controlDirectory) == 0o777)

        // Made by podcli itself: 0700. (No such episode: the player it started says so.)
        #expect(rmdir(p.controlDirectory) == 0)
        let made = try p.run(["play", "999", "--background"])
        #expect(made.status == 66, "\(made)")
        #expect(Self.mode(p.controlDirectory) == 0o700)
    }

    @Test func theBackgroundPlayersLogIsNeverWrittenThroughALink() throws {
        let t = try CLITestCase()
        let victim = t.home.path + "/precious"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(symlink(victim, t.home.path + "/control.log") == 0)
        let play = try t.run(["play", "999", "--background"])
        #expect(play.status == 66, "\(play)")
        #expect(play.stderr == "podcli: no episode '999': give its number or a UUID prefix (see 'podcli list')\n")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        var info = stat()
        #expect(lstat(t.home.path + "/control.log", &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test(secondUser) func aSocketAnotherUserServesIsNeverTalkedTo() throws {
        let p = try Plain()
        // The other user must be able to reach the directory.
        for path in [p.root.path, p.temporary] { #expect(chmod(path, 0o755) == 0) }
        // Another user got the directory first, and answers on a socket in it.
        #expect(mkdir(p.controlDirectory, 0o777) == 0 && chmod(p.controlDirectory, 0o777) == 0)
        let socket = p.controlDirectory + "/control"
        let fake = try Self.runAsOtherUser([
            "/usr/bin/python3", "-c",
            """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4); print("ready", flush=True)
            while True:
                c, _ = s.accept(); c.recv(4096)
                c.sendall(b'{"state":"playing","id":1,"title":"FAKE","position":1,"volume":100}\\n'); c.close()
            """, socket,
        ])
        defer { fake.kill(signal: SIGKILL) }
        #expect(waitUntil(timeout: 10) { fake.currentStdout.contains("ready") }, "\(fake.currentStderr)")

        let status = try p.run(["status", "--json"])
        #expect(status.status == 74, "\(status)")
        #expect(!status.stdout.contains("FAKE"))
        #expect(
            status.stderr
                == "podcli: cannot use \(socket) for the control socket: it is not a socket of yours "
                + "(owner uid 65534); not talking to it\n")

        // A socket file of ours, but another user's process at the other end (SO_PEERCRED).
        #expect(chown(socket, getuid(), getgid()) == 0)
        let pause = try p.run(["pause"])
        #expect(pause.status == 74, "\(pause)")
        #expect(
            pause.stderr
                == "podcli: cannot use \(socket) for the control socket: another user's process answers there; "
                + "not talking to it\n")
    }

    @Test func playNeverChangesTheModeOfTheHomeDirectory() throws {
        let library = try PlayCommandTests.Library()
        let id = try library.download(PlayCommandTests.stereo)
        #expect(chmod(library.t.home.path, 0o755) == 0)
        let play = try library.play([id, "--for", "0.5"], device: "null")
        #expect(play.status == 0, "\(play)")
        #expect(Self.mode(library.t.home.path) == 0o755)
    }

    // MARK: - What podcli makes

    @Test(arguments: ["000", "022"]) func theDirectoriesAndConfigPodcliMakesAreTheOwnersWhateverTheUmask(
        umask: String
    ) throws {
        let p = try Plain()
        // --home with two missing parents, set up by `config set` as the first command.
        let home = p.root.path + "/shared/podcasts/home"
        #expect(chmod(p.root.path, 0o755) == 0)
        let set = try p.run(["--home", home, "config", "set", "jobs", "2"], umask: umask)
        #expect(set.status == 0, "\(set)")
        for directory in [p.root.path + "/shared", p.root.path + "/shared/podcasts", home] {
            #expect(Self.mode(directory) == 0o700, "\(directory) under umask \(umask)")
        }
        #expect(Self.mode(home + "/config") == 0o600, "under umask \(umask)")
        // What podcli did not make keeps its mode.
        #expect(Self.mode(p.root.path) == 0o755)
        let sync = try p.run(["--home", home, "sync"], umask: umask)
        #expect(sync.status == 0, "\(sync)")
        for file in ["sync.lock", "sync.log", "podcli.db"] {
            #expect(Self.mode(home + "/" + file) == 0o600, "\(file) under umask \(umask)")
        }
        #expect(Self.mode(home + "/episodes") == 0o755)

        // The XDG directories, under a HOME that has none of them yet.
        let user = p.root.path + "/home"
        #expect(try p.run(["config", "set", "jobs", "2"], umask: umask).status == 0)
        #expect(try p.run(["sync"], umask: umask).status == 0)
        for directory in [
            ".config", ".config/podcli", ".local", ".local/share", ".local/share/podcli", ".local/state",
            ".local/state/podcli",
        ] {
            #expect(Self.mode(user + "/" + directory) == 0o700, "~/\(directory) under umask \(umask)")
        }
        for file in [".config/podcli/config", ".local/state/podcli/sync.log", ".local/share/podcli/sync.lock"] {
            #expect(Self.mode(user + "/" + file) == 0o600, "~/\(file) under umask \(umask)")
        }
    }

    @Test(secondUser) func aLinkPlantedAtTheSyncLockOrLogIsRefusedAndWhereItPointsIsUntouched() throws {
        let t = try CLITestCase()
        // A home others can write in (shared with a group, say): another user plants the links.
        #expect(chmod(t.home.path, 0o777) == 0)
        let elsewhere = try TemporaryDirectory(prefix: "podcli-victim")
        let victim = elsewhere.path + "/precious"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(try t.run(["list"]).status == 0)

        for name in ["sync.lock", "sync.log"] {
            let planted = t.home.path + "/" + name
            let link = try Self.runAsOtherUser(["/bin/ln", "-s", victim, planted]).waitUntilExit()
            #expect(link.status == 0, "\(link)")
            let sync = try t.run(["sync"])
            #expect(sync.status == 74, "\(name): \(sync)")
            #expect(sync.stderr == "podcli: cannot use \(planted): it is a link; remove it (podcli makes it anew)\n")
            #expect(sync.stdout.isEmpty)
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n", "\(name)")
            #expect(unlink(planted) == 0)
        }

        // Another user's file in its place: our log is not theirs to read.
        let theirs = try Self.runAsOtherUser(["/usr/bin/touch", t.home.path + "/sync.log"]).waitUntilExit()
        #expect(theirs.status == 0, "\(theirs)")
        let sync = try t.run(["sync"])
        #expect(sync.status == 74, "\(sync)")
        #expect(
            sync.stderr
                == "podcli: cannot use \(t.home.path)/sync.log: it belongs to another user (uid 65534); remove it "
                + "(podcli makes it anew)\n")
        #expect(try String(contentsOfFile: t.home.path + "/sync.log", encoding: .utf8).isEmpty)

        // Removed, podcli makes its own again.
        #expect(unlink(t.home.path + "/sync.log") == 0)
        let clean = try t.run(["sync"])
        #expect(clean.status == 0, "\(clean)")
        #expect(Self.mode(t.home.path + "/sync.log") == 0o600 && Self.mode(t.home.path + "/sync.lock") == 0o600)
    }

    // MARK: - The library

    @Test(secondUser) func theDatabaseIsTheOwnersAloneWhateverTheUmask() throws {
        let t = try CLITestCase()
        #expect(chmod(t.home.path, 0o755) == 0)
        // Under umask 022, in a directory that already existed.
        let list = try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "umask 022 && exec \"$0\" --home \"$1\" list", t.podcli.executableURL.path, t.home.path],
            environment: t.podcli.childEnvironment()
        ).waitUntilExit()
        #expect(list.status == 0, "\(list)")
        let database = t.home.path + "/podcli.db"
        #expect(Self.mode(database) == 0o600)
        let read = try Self.runAsOtherUser(["/bin/cat", database]).waitUntilExit()
        #expect(read.status != 0 && read.stderr.contains("Permission denied"), "\(read)")

        // Left readable by an older podcli, with its -wal and -shm (held open by another
        // connection, so they stay): the next command closes all three up.
        let holder = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/python3"),
            arguments: [
                "-c",
                """
                import sqlite3, sys, time
                c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA journal_mode=WAL")
                c.execute("CREATE TABLE IF NOT EXISTS held (x)"); c.commit(); print("ready", flush=True)
                time.sleep(60)
                """, database,
            ], environment: ProcessInfo.processInfo.environment)
        defer { holder.kill(signal: SIGKILL) }
        #expect(waitUntil(timeout: 10) { holder.currentStdout.contains("ready") }, "\(holder.currentStderr)")
        for file in [database, database + "-wal", database + "-shm"] { #expect(chmod(file, 0o644) == 0) }
        #expect(try t.run(["list"]).status == 0)
        for file in [database, database + "-wal", database + "-shm"] {
            #expect(Self.mode(file) == 0o600, "\(file)")
        }
    }

    /// What `open` is for: a media server running as another user reads an open episode in a
    /// `--home` made open by its owner, and never a private one beside it.
    @Test(secondUser) func anotherUserReadsAnOpenEpisodeInAnOpenHomeAndNeverAPrivateOne() throws {
        let world = try FeedCommandTests.World()
        let t = world.t
        let audio = CLITestCase.audioBytes(150_000)
        for name in ["open.mp3", "private.mp3"] {
            try audio.write(to: world.directory.appendingPathComponent(name))
        }
        // The shared directory and the path to it, made by the owner for the server.
        let shared = try TemporaryDirectory(prefix: "podcli-shared")
        #expect(chmod(shared.path, 0o755) == 0)
        let home = shared.path + "/podcasts"
        #expect(mkdir(home, 0o755) == 0 && chmod(home, 0o755) == 0)
        #expect(try t.podcli.run(["--home", home, "fetch", "--protection", "open", world.url("open.mp3")]).status == 0)
        #expect(try t.podcli.run(["--home", home, "fetch", world.url("private.mp3")]).status == 0)
        #expect(Self.mode(home) == 0o755)

        let episodes = try FileManager.default.contentsOfDirectory(atPath: home + "/episodes").map {
            home + "/episodes/" + $0
        }
        let openFile = try #require(
            episodes.map { $0 + "/open.mp3" }.first(where: { FileManager.default.fileExists(atPath: $0) }))
        let privateFile = try #require(
            episodes.map { $0 + "/private.mp3" }.first(where: { FileManager.default.fileExists(atPath: $0) }))
        let read = try Self.runAsOtherUser(["/bin/cat", openFile]).waitUntilExit()
        #expect(read.status == 0 && read.stdoutData == audio, "\(read.stderr)")
        let refused = try Self.runAsOtherUser(["/bin/cat", privateFile]).waitUntilExit()
        #expect(refused.status != 0 && refused.stderr.contains("Permission denied"), "\(refused)")
    }

    @Test func aLinkAtThePartialNameIsNeverFollowed() throws {
        let world = try FeedCommandTests.World()
        let t = world.t
        let audio = CLITestCase.audioBytes(150_000)
        try audio.write(to: world.directory.appendingPathComponent("ep1.mp3"))
        var item = world.item(1)
        item.url = world.url("ep1.mp3")
        item.length = audio.count
        let feed = try world.serve("feed.xml", FeedCommandTests.rss(title: "Show", items: [item]))
        #expect(try t.run(["fetch", feed]).status == 0)
        let uuid = try #require(try world.episodes().first?["uuid"] as? String)

        // Someone planted a link where the partial download goes, pointing at a file of ours.
        let victim = t.home.path + "/victim"
        try "do not touch\n".write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(chmod(victim, 0o644) == 0)
        let directory = t.home.path + "/episodes/" + uuid
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(symlink(victim, directory + "/ep1.mp3.part") == 0)

        let fetch = try t.run(["fetch", item.url])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "do not touch\n")
        #expect(Self.mode(victim) == 0o644)
        let recorded = directory + "/ep1.mp3"
        var info = stat()
        #expect(lstat(recorded, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(try Data(contentsOf: URL(fileURLWithPath: recorded)) == audio)
        #expect(try t.run(["verify"]).status == 0)
    }
}
