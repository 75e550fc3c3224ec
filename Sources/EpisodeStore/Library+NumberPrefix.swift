extension Library {
    /// The newest `limit` episodes whose number, written out, starts with `prefix` (the newest of
    /// all for an empty prefix): what a shell offers at `podcli play 12<Tab>`. None for a prefix
    /// that is not a number one could type (`0`, `x`).
    ///
    /// Numbers starting with 12 are 12, 120-129, 1200-1299 and so on up to the largest number:
    /// read through the primary key when those ranges hold few episodes, else through the
    /// newest-first index until `limit` of them are found, whichever reads fewer rows. A rare
    /// prefix on a million episodes (`99999`) would otherwise read them all (0.4 s against 1 ms).
    public func newestEpisodes(numberedFrom prefix: String, limit: Int) throws(StoreError) -> [EpisodeListing] {
        guard !prefix.isEmpty else { return try listing(EpisodeFilter(), page: ListingPage(limit: limit)) }
        let ranges = NumberPrefixRanges(prefix: prefix, largest: try largestEpisodeID())
        guard !ranges.ranges.isEmpty, limit > 0 else { return [] }
        // k numbers in the ranges, or about limit * largest / k rows of the index: k² against limit * largest.
        let viaKey = ranges.count.multipliedReportingOverflow(by: ranges.count)
        let viaIndex = limit.multipliedReportingOverflow(by: ranges.largest)
        let throughKey = !viaKey.overflow && (viaIndex.overflow || viaKey.partialValue <= viaIndex.partialValue)
        let source = throughKey ? "episodes NOT INDEXED" : "episodes INDEXED BY episodes_newest"
        let sql = """
            SELECT \(EpisodeListing.columns) FROM \(source) \(EpisodeListing.feedJoin) \(EpisodeListing.playbackJoin)
            WHERE \(ranges.ranges.map { _ in "episodes.id BETWEEN ? AND ?" }.joined(separator: " OR "))
            ORDER BY \(ListingQuery.newest) LIMIT ?
            """
        let values = ranges.ranges.flatMap { [SQLValue($0.lowerBound), SQLValue($0.upperBound)] } + [SQLValue(limit)]
        var listings: [EpisodeListing] = []
        try database.forEachRow(sql, values) { row in
            listings.append(EpisodeListing(row: row))
            return true
        }
        return listings
    }
}

/// The numbers from 1 to `largest` whose decimal form starts with `prefix`, as ranges:
/// 12 → 12...12, 120...129, 1200...1299, ... (the last cut at `largest`).
struct NumberPrefixRanges {
    let ranges: [ClosedRange<Int>]
    let largest: Int

    init(prefix: String, largest: Int) {
        self.largest = largest
        guard prefix.first != "0", prefix.allSatisfy({ $0.isASCII && $0.isNumber }), var low = Int(prefix) else {
            ranges = []
            return
        }
        var high = low
        var ranges: [ClosedRange<Int>] = []
        while low <= largest {
            ranges.append(low...min(high, largest))
            let (lowTimesTen, lowOverflows) = low.multipliedReportingOverflow(by: 10)
            guard !lowOverflows else { break }
            let (highTimesTen, highOverflows) = high.multipliedReportingOverflow(by: 10)
            low = lowTimesTen
            high = highOverflows || highTimesTen > Int.max - 9 ? Int.max : highTimesTen + 9
        }
        self.ranges = ranges
    }

    /// How many numbers the ranges hold.
    var count: Int {
        ranges.reduce(0) { total, range in
            let sum = total.addingReportingOverflow(range.count)
            return sum.overflow ? Int.max : sum.partialValue
        }
    }
}
