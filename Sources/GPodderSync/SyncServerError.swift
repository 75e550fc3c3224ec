import Downloads
import Strings

/// Why an exchange with a sync server failed, in words a user can act on. No case holds a
/// password: `APIError` masks it, and a bad reply is described by its shape, never its text.
public enum SyncServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No answer, or a refusal: unreachable, a 5xx, 401/403, ... (`APIError`'s words).
    case api(APIError)
    /// An answer that is not the API's: not JSON, JSON of another shape, a time that cannot be read.
    case badReply(url: String, problem: String)

    /// The server refused the user name or password (401, 403).
    public var isAuthentication: Bool {
        if case .api(.unauthorized) = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .api(let error):
            return error.description
        case .badReply(let url, let problem):
            return "\(URLPassword.hidden(in: url)) did not answer as a gpodder.net API server does (\(problem)): "
                + "check the server's URL and which API it speaks"
        }
    }
}
