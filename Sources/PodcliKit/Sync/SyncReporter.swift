/// Where a sync tells what happens, as it happens, from every worker thread: the executable's
/// terminal line (or plain lines under cron), or a test's record.
public protocol SyncReporter: Sendable {
    /// A result: a feed's new episodes, a deletion, a download.
    func result(_ line: String)
    /// A failure, told at once (cron mails stderr).
    func failure(_ line: String)
    /// Something about the configuration worth seeing (a section that names no feed).
    func note(_ line: String)
    /// `total` downloads are starting.
    func downloadsBegin(total: Int)
    /// Download `id` has `received` bytes of `total`.
    func downloadProgress(_ id: Int, received: Int, total: Int?)
    /// Download `id` has ended, however it ended.
    func downloadEnded(_ id: Int)
    /// The sync is over: nothing more will be told.
    func finish()
}
