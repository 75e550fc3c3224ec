/// Which `podcast:transcript` offer a downloaded episode's transcript was fetched from (schema
/// 17), so that only an episode whose feed changed its offers since is looked at again.
public struct TranscriptSource: Equatable, Sendable {
    /// The offer fetched; nil when the feed offered none podcli reads (or it was never recorded).
    public var url: String?
    public var type: String?
    /// Whether the feed's offers for the episode changed since (a refresh marks it).
    public var offersChanged: Bool

    public init(url: String?, type: String?, offersChanged: Bool = false) {
        (self.url, self.type, self.offersChanged) = (url, type, offersChanged)
    }
}

extension Library {
    /// Records that the episode's transcript was fetched (or found not offered) from the offer
    /// at `url` of `type`, as the feed offers it now.
    public func recordTranscriptSource(url: String?, type: String?, of episodeID: Int) throws(StoreError) {
        try write { writer throws(StoreError) in
            try writer.run(
                "INSERT OR REPLACE INTO transcript_sources (episode_id, offer_url, offer_type) VALUES (?, ?, ?)",
                [SQLValue(episodeID), SQLValue(url), SQLValue(type)])
        }
    }

    /// What the episode's transcript was fetched from; nil when nothing was recorded.
    public func transcriptSource(of episodeID: Int) throws(StoreError) -> TranscriptSource? {
        try database.rows(
            "SELECT offer_url, offer_type, offers_changed FROM transcript_sources WHERE episode_id = ?",
            [SQLValue(episodeID)]
        ).first.map { TranscriptSource(url: $0.string(0), type: $0.string(1), offersChanged: $0.int(2) == 1) }
    }

    /// The downloaded episodes whose feed changed their transcript offers since their transcript
    /// was fetched, by number.
    public func episodesWithChangedTranscriptOffers() throws(StoreError) -> [Int] {
        try database.rows(
            """
            SELECT episode_id FROM transcript_sources JOIN episodes ON episodes.id = episode_id
            WHERE offers_changed = 1 AND state = 'downloaded' ORDER BY episode_id
            """
        ).compactMap { $0.int(0).map(Int.init) }
    }
}
