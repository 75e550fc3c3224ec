/// One try at downloading an episode: kept so `podcli show` can say what went wrong and when.
public struct DownloadAttempt: Equatable, Sendable {
    public let id: Int
    public let startedAt: Int
    public let finishedAt: Int?
    public let url: String
    public let httpStatus: Int?
    public let bytes: Int
    public let error: String?

    static let columns = "id, started_at, finished_at, url, http_status, bytes, error"

    init(row: Row) {
        id = Int(row.int(0)!)
        startedAt = Int(row.int(1)!)
        finishedAt = row.int(2).map(Int.init)
        url = row.string(3)!
        httpStatus = row.int(4).map(Int.init)
        bytes = Int(row.int(5) ?? 0)
        error = row.string(6)
    }
}
