import EpisodeStore
import FoundationEssentials
import PodcastDirectory

/// The last `podcli search`'s results, numbered as it printed them, kept in the state directory
/// (`last-search.json`, 0600) so `podcli fetch --result N` subscribes to the one a user picked.
public struct LastSearch: Codable, Equatable, Sendable {
    public var term: String
    public var podcasts: [DirectoryPodcast]

    public init(term: String, podcasts: [DirectoryPodcast]) {
        self.term = term
        self.podcasts = podcasts
    }

    public static func path(in stateDirectory: String) -> String { stateDirectory + "/last-search.json" }

    /// Keeps these results in place of the last ones.
    /// - Throws: `PodcliError.searchNotKept`; `StoreError.io` when the directory cannot be made.
    public func keep(in stateDirectory: String) throws {
        try PrivateDirectory.make(stateDirectory)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let path = Self.path(in: stateDirectory)
        if let code = PrivateFile.write(Array(try encoder.encode(self)), to: path) {
            throw PodcliError.searchNotKept(path: path, errno: code)
        }
    }

    /// Result `number` (from 1) of the last search kept in `stateDirectory`.
    /// - Throws: `PodcliError.noSearch` when none was kept (or it cannot be read),
    ///   `.noSuchResult` past its results.
    public static func podcast(_ number: Int, in stateDirectory: String) throws(PodcliError) -> DirectoryPodcast {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let data = FileManager.default.contents(atPath: path(in: stateDirectory)),
            let search = try? decoder.decode(LastSearch.self, from: data)
        else { throw .noSearch }
        guard (1...max(search.podcasts.count, 1)).contains(number), !search.podcasts.isEmpty else {
            throw .noSuchResult(number, count: search.podcasts.count, term: search.term)
        }
        return search.podcasts[number - 1]
    }
}
