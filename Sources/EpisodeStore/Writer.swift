/// The library's one way to write: given to the body of `Library.write`, inside its
/// transaction, and nowhere else (it cannot be copied, so it cannot outlive the body). A write
/// helper takes one, which says it runs inside its caller's transaction.
struct Writer: ~Copyable {
    private let database: Database

    /// The library's clock, read once as the transaction began: the date of everything it writes.
    let now: Int

    init(_ database: Database, now: Int) {
        self.database = database
        self.now = now
    }

    /// Runs one statement with `values` bound.
    func run(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) { try database.run(sql, values) }

    /// Runs statements that take no parameters (an index dropped or built).
    func execute(_ sql: String) throws(StoreError) { try database.execute(sql) }

    /// Runs one statement with `values` bound and returns its rows: one that writes and says
    /// what it wrote (`RETURNING`).
    func rows(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> [Row] { try database.rows(sql, values) }

    /// The rowid of the transaction's last INSERT.
    var lastInsertedRowID: Int { database.lastInsertedRowID }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { database.changes }
}
