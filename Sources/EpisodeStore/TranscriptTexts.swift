import CSQLite
import Zlib

/// The texts of a transcript's segments as the library keeps them (schema 18), once per episode:
/// a JSON array whose element N is the text of the segment at place N, which SQLite reads with
/// `json_each` to index the segments or make the index forget them; stored deflated (a BLOB).
enum TranscriptTexts {
    /// The JSON array of `texts`, and the value to store for it.
    static func stored(_ texts: [String]) throws(StoreError) -> (json: String, value: SQLValue) {
        let json = jsonArray(texts)
        do {
            return (json, .blob(try Deflate.compress(Array(json.utf8))))
        } catch {
            throw .sqlite(code: SQLITE_NOMEM, message: "zlib: \(error)", operation: "deflating a transcript")
        }
    }

    /// The JSON array a stored value holds.
    /// - Throws: `StoreError.sqlite` with SQLITE_CORRUPT when a deflated value cannot be inflated.
    static func json(of stored: SQLValue, episodeID: Int) throws(StoreError) -> String {
        switch stored {
        case .blob(let deflated):
            do {
                return String(decoding: try Deflate.decompress(deflated), as: UTF8.self)
            } catch {
                throw .sqlite(
                    code: SQLITE_CORRUPT, message: "its stored text cannot be inflated (zlib: \(error))",
                    operation: "reading the transcript of episode \(episodeID)")
            }
        case .null, .integer, .real, .text:
            throw .sqlite(
                code: SQLITE_CORRUPT, message: "its stored text is not deflated",
                operation: "reading the transcript of episode \(episodeID)")
        }
    }

    /// `texts` as a JSON array of strings: quotes, backslashes and control characters escaped,
    /// the rest as it is (UTF-8).
    static func jsonArray(_ texts: [String]) -> String {
        var json = "["
        json.reserveCapacity(texts.reduce(2) { $0 + $1.utf8.count + 3 })
        for (place, text) in texts.enumerated() {
            json += place == 0 ? "\"" : ",\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case "\n": json += "\\n"
                case "\r": json += "\\r"
                case "\t": json += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }
}
