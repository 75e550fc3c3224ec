/// The episodes a feed had before a refresh, indexed by each identity key; each can be claimed
/// by one item of the new document.
struct KnownEpisodes {
    /// The keys an item can claim an episode by, strongest first.
    enum Key: CaseIterable {
        case guidAndMedia, guid, media, titleAndDate
    }

    private var byGUID: [String: [Int64]] = [:]
    private var byMediaKey: [String: [Int64]] = [:]
    private var byTitleAndDate: [String: [Int64]] = [:]
    private var mediaKeys: [Int64: String] = [:]
    private var remaining = Set<Int64>()

    init(_ rows: [Row]) {
        for row in rows {
            let id = row.int(0)!
            remaining.insert(id)
            if let guid = row.string(1) { byGUID[guid, default: []].append(id) }
            if let key = row.string(2) {
                byMediaKey[key, default: []].append(id)
                mediaKeys[id] = key
            }
            if let title = row.string(3), let date = row.int(4) {
                byTitleAndDate[Self.titleKey(title, Int(date)), default: []].append(id)
            }
        }
    }

    var unclaimed: [Int64] { remaining.sorted() }

    /// The first unclaimed episode that matches by `key`, claimed.
    mutating func claim(_ key: Key, guid: String?, mediaKey: String, title: String, date: Int?) -> Int64? {
        let candidates: [Int64]?
        switch key {
        case .guidAndMedia: candidates = guid.flatMap { byGUID[$0] }?.filter { mediaKeys[$0] == mediaKey }
        case .guid: candidates = guid.flatMap { byGUID[$0] }
        case .media: candidates = byMediaKey[mediaKey]
        case .titleAndDate: candidates = date.flatMap { byTitleAndDate[Self.titleKey(title, $0)] }
        }
        guard let id = candidates?.first(where: { remaining.contains($0) }) else { return nil }
        remaining.remove(id)
        return id
    }

    private static func titleKey(_ title: String, _ date: Int) -> String { "\(date)\u{1}\(title)" }
}
