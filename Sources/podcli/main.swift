import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

// Broken pipes (`podcli list | head`) and file-size limits must come back as errors to report,
// not kill the process before it can leave its data consistent.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)

exit(Podcli.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
