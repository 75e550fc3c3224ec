import CSQLite
import Zlib

extension Database {
    /// Defines `search_text(description)` on this connection: the words of a description
    /// (`SearchText`), which the search index of schema 6 is built from and kept in step with by
    /// triggers. Every podcli connection defines it before the schema is read; a tool that opens
    /// the file without it can read everything but cannot change an episode's texts.
    /// - Throws: `StoreError.sqlite` when SQLite refuses the definition.
    func defineSearchText() throws(StoreError) {
        try define("search_text", searchText)
    }

    /// Defines `uuid_bytes(text)` on this connection: the 16 bytes of a UUID in canonical form,
    /// any other value as it is (`EpisodeUUID`), with which schema 7 stores the UUIDs it finds.
    func defineUUIDBytes() throws(StoreError) {
        try define("uuid_bytes", uuidBytes)
    }

    /// Defines `deflated(text)` on this connection: the text's UTF-8 deflated (zlib), with which
    /// schema 18 stores the transcripts' texts it moves (`TranscriptTexts`).
    func defineDeflated() throws(StoreError) {
        try define("deflated", deflated)
    }

    /// Defines a function of one argument.
    private func define(_ name: String, _ function: @escaping SQLFunction) throws(StoreError) {
        // Deterministic (the index's deletes depend on search_text's) and innocuous (no side
        // effects), so SQLite lets the schema's view and triggers call them.
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let code = sqlite3_create_function_v2(handle, name, 1, flags, nil, function, nil, nil, nil)
        guard code == SQLITE_OK else { throw Database.error(handle, code, "defining \(name)()") }
    }
}

/// A function SQLite calls with its context and its arguments.
private typealias SQLFunction = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

/// The bytes of a function's first argument as text; nil (and the result set to NULL) for NULL.
private func textArgument(
    _ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) -> UnsafeBufferPointer<UInt8>? {
    guard let argument = arguments?[0], sqlite3_value_type(argument) != SQLITE_NULL,
        let text = sqlite3_value_text(argument)
    else {
        sqlite3_result_null(context)
        return nil
    }
    return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(argument)))
}

/// `deflated(text)`: NULL for NULL, else the text's bytes deflated; an error when zlib fails.
private let deflated: SQLFunction = { context, _, arguments in
    guard let text = textArgument(context, arguments) else { return }
    do {
        let bytes = try Deflate.compress(Array(text))
        sqlite3_result_blob(context, bytes, Int32(bytes.count), csqlite_transient())
    } catch {
        sqlite3_result_error(context, "deflated(): zlib: \(error)", -1)
    }
}

/// `uuid_bytes(value)`: see `Database.defineUUIDBytes`.
private let uuidBytes: SQLFunction = { context, _, arguments in
    guard let argument = arguments?[0] else { return }
    guard sqlite3_value_type(argument) == SQLITE_TEXT, let text = sqlite3_value_text(argument),
        let bytes = EpisodeUUID.bytes(of: String(cString: text))
    else {
        sqlite3_result_value(context, argument)
        return
    }
    sqlite3_result_blob(context, bytes, Int32(bytes.count), csqlite_transient())
}

/// `search_text(text)`: NULL for NULL, else `SearchText.words(ofHTML:into:)` of the text.
private let searchText: SQLFunction = { context, _, arguments in
    guard let text = textArgument(context, arguments) else { return }
    var words: [UInt8] = []
    SearchText.words(ofHTML: text, into: &words)
    words.withUnsafeBufferPointer { bytes in
        let start = UnsafeRawPointer(bytes.baseAddress ?? text.baseAddress!).assumingMemoryBound(to: CChar.self)
        sqlite3_result_text(context, start, Int32(bytes.count), csqlite_transient())
    }
}
