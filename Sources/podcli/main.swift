import FoundationEssentials
import PodcliKit
import Threads

#if canImport(Glibc)
    import Glibc
#endif

// Broken pipes (`podcli list | head`) and file-size limits must come back as errors to report,
// not kill the process before it can leave its data consistent.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)

let code = Podcli.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)

#if DEBUG
    // The rule that makes `exit` safe (its atexit handlers clean up libcurl's OpenSSL, sd-bus...):
    // every thread a command started has been stopped and joined by now. A debug build, which
    // the tests run, checks it.
    // (A joined thread may take a moment to leave the kernel's list.)
    for _ in 0..<20 where !ServiceThread.running(named: "podcli.").isEmpty { usleep(5_000) }
    let left = ServiceThread.running(named: "podcli.")
    if !left.isEmpty {
        Output.write(
            "podcli: internal error: threads still running at exit: \(left.joined(separator: ", "))\n",
            to: STDERR_FILENO)
        exit(70)
    }
#endif
exit(code)
