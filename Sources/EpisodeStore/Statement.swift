import CSQLite

/// One prepared SQLite statement, owned and finalized by this object.
///
/// Not `Sendable`: it belongs to the `Database` that made it, on that database's thread.
public final class Statement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    let sql: String
    /// The result's column names (as `AS` gives them), shared by every row it reads.
    private let columns: ColumnNames

    init(connection: OpaquePointer, sql: String) throws(StoreError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw Database.error(connection, code, "preparing `\(sql)`")
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
        columns = ColumnNames(
            (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) })
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to the parameters in order, replacing earlier bindings.
    /// - Throws: `StoreError.sqlite` (SQLITE_RANGE) when the count of values is not the count of
    ///   parameters: a value too many or too few is a mistake, never left to bind as NULL.
    func bind(_ values: [SQLValue]) throws(StoreError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let parameters = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == parameters else {
            throw .sqlite(
                code: SQLITE_RANGE, message: "\(values.count) values for \(parameters) parameters",
                operation: "binding `\(sql)`")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real): code = sqlite3_bind_double(handle, index, real)
            case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
            case .blob(let bytes):
                code = sqlite3_bind_blob(handle, index, bytes, Int32(bytes.count), csqlite_transient())
            }
            guard code == SQLITE_OK else { throw Database.error(connection, code, "binding `\(sql)`") }
        }
    }

    /// Advances to the next row; false once the statement is done.
    func step() throws(StoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw Database.error(connection, code, "running `\(sql)`")
        }
    }

    /// Runs the statement to completion with `values` bound, returning every row.
    func rows(_ values: [SQLValue]) throws(StoreError) -> [Row] {
        var rows: [Row] = []
        try forEachRow(values) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    /// Runs the statement with `values` bound, handing each row to `body` as it is read, until
    /// the rows end or `body` returns false.
    func forEachRow(_ values: [SQLValue], _ body: (Row) -> Bool) throws(StoreError) {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {
            guard body(currentRow()) else { return }
        }
    }

    private func currentRow() -> Row {
        let count = sqlite3_column_count(handle)
        var values: [SQLValue] = []
        values.reserveCapacity(Int(count))
        for column in 0..<count {
            switch sqlite3_column_type(handle, column) {
            case SQLITE_NULL: values.append(.null)
            case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(handle, column)))
            case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(handle, column)))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(handle, column))
                let start = sqlite3_column_blob(handle, column)?.assumingMemoryBound(to: UInt8.self)
                values.append(.blob(start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []))
            default:
                let text = sqlite3_column_text(handle, column).map { String(cString: $0) } ?? ""
                values.append(.text(text))
            }
        }
        return Row(values: values, columns: columns)
    }
}

/// A value SQLite stores for podcli: floats only for loudness (schema 8), blobs only for UUIDs and
/// transcripts' deflated texts (schema 18).
public enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A statement's column names, with their positions looked up once.
final class ColumnNames: Sendable {
    let positions: [String: Int]

    init(_ names: [String]) {
        positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// One result row; columns are read by position, in the order of the SELECT, or by name where
/// positions are fragile (a long column list, or one a query extends).
public struct Row: Sendable {
    let values: [SQLValue]
    let columns: ColumnNames

    /// The position of the column named `name`.
    private func position(_ name: String) -> Int {
        guard let position = columns.positions[name] else { preconditionFailure("no column '\(name)' in the row") }
        return position
    }

    func int(_ name: String) -> Int64? { int(position(name)) }

    /// Whether the row has a column named `name` (one a query may add).
    func has(_ name: String) -> Bool { columns.positions[name] != nil }

    func string(_ name: String) -> String? { string(position(name)) }

    public func int(_ column: Int) -> Int64? {
        if case .integer(let value) = values[column] { return value }
        return nil
    }

    public func string(_ column: Int) -> String? {
        switch values[column] {
        case .text(let value): return value
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .null, .blob: return nil
        }
    }

    public func double(_ column: Int) -> Double? {
        switch values[column] {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// An episode's UUID, as stored (`EpisodeUUID`), in its text form.
    func uuid(_ column: Int) -> String? {
        switch values[column] {
        case .blob(let bytes) where bytes.count == 16: return EpisodeUUID.text(of: bytes)
        case .text(let text): return text
        default: return nil
        }
    }

    func uuid(_ name: String) -> String? { uuid(position(name)) }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    init(_ text: String?) { self = text.map(SQLValue.text) ?? .null }
    init(_ integer: Int?) { self = integer.map { .integer(Int64($0)) } ?? .null }
    init(_ integer: Int) { self = .integer(Int64(integer)) }
    init(_ real: Double?) { self = real.map(SQLValue.real) ?? .null }
}
