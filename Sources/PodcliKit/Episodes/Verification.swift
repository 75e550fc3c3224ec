import EpisodeStore

/// `verify`: each downloaded file compared with its record (existence, size, SHA-256, mode,
/// owner, the directory's mode) and, when asked, repaired: modes and owner put back, what is
/// missing or corrupt downloaded again (a repair ends with the server's bytes or an error).
public struct Verification {
    /// One file checked: what differed from its record, and what became of it.
    public struct Check: Encodable, Sendable {
        public enum Outcome: String, Encodable, Sendable {
            /// It matched its record.
            case matches
            /// It differs, and was not repaired.
            case differs
            /// Its modes or owner were put back.
            case repaired
            /// It was downloaded again (the server's bytes may differ from the record's).
            case downloaded
        }
        public let id: Int
        public let path: String
        public let outcome: Outcome
        /// What differed, one phrase each ("mode 0644, recorded 0600").
        public let differences: [String]
    }

    /// What is told as it happens, for the command to say it.
    public enum Event {
        /// A file differs from its record in `drift`.
        case differs(Episode, EpisodeFile, Drift)
        /// Its modes and owner were put back.
        case repaired(Episode, EpisodeFile)
        /// It was downloaded again; `changed` when the server's file is not the one recorded.
        case downloaded(Episode, EpisodeFile, changed: Bool)
    }

    public let library: Library
    /// Downloads an episode again, for a repair; nil to check only.
    public let redownload: ((Episode) throws -> EpisodeFile)?

    public init(library: Library, redownload: ((Episode) throws -> EpisodeFile)?) {
        self.library = library
        self.redownload = redownload
    }

    /// Checks (and repairs) every file of the downloaded `episodes`, in order.
    /// - Throws: a store error, or the failure of a download that was to repair a file.
    public func run(_ episodes: [Episode], onEvent: (Event) -> Void) throws -> [Check] {
        var checks: [Check] = []
        for episode in episodes where episode.state == .downloaded {
            for file in try library.files(of: episode) {
                let drifts = library.check(file, of: episode)
                var outcome = Check.Outcome.matches
                if drifts.isEmpty {
                    try library.markVerified(file)
                } else {
                    for drift in drifts { onEvent(.differs(episode, file, drift)) }
                    outcome = try repair(file, of: episode, drifts: drifts, onEvent: onEvent)
                }
                checks.append(
                    Check(
                        id: episode.id, path: file.relativePath, outcome: outcome,
                        differences: drifts.map(\.description)))
            }
        }
        return checks
    }

    private func repair(
        _ file: EpisodeFile, of episode: Episode, drifts: [Drift], onEvent: (Event) -> Void
    ) throws -> Check.Outcome {
        guard let redownload else { return .differs }
        let remaining = library.repairAttributes(file, of: episode, drifts: drifts)
        if remaining.isEmpty {
            try library.markVerified(file)
            onEvent(.repaired(episode, file))
            return .repaired
        }
        guard remaining.contains(where: \.needsDownload) else { return .differs }
        let fresh = try redownload(episode)
        onEvent(.downloaded(episode, fresh, changed: fresh.sha256 != file.sha256))
        return .downloaded
    }
}
