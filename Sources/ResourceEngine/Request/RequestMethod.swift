/// The HTTP methods a request can use. Raw values are lower case; they are sent upper-cased.
public enum RequestMethod: String, CaseIterable, Sendable {
    /// `OPTIONS`: what the server allows.
    case options
    /// `GET`: a resource's own load; sent with `If-None-Match` / `If-Modified-Since` when it can.
    case get
    /// `HEAD`: the headers of a `GET` without the body.
    case head
    /// `POST`.
    case post
    /// `PUT`.
    case put
    /// `PATCH`.
    case patch
    /// `DELETE`.
    case delete

    /// The method as it goes on the wire ("GET").
    public var httpName: String {
        switch self {
        case .options: "OPTIONS"
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        }
    }

    /// The method for an HTTP method string; unknown names count as `.get` for configuration.
    public init(httpName: String?) {
        guard let httpName else {
            self = .get
            return
        }
        // Asked for every request: the wire names first, without making `allCases`.
        switch httpName {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case "PUT": self = .put
        case "PATCH": self = .patch
        case "DELETE": self = .delete
        case "OPTIONS": self = .options
        default: self = RequestMethod(rawValue: httpName.lowercased()) ?? .get
        }
    }

    // By case, not by raw value: a configuration is looked up by method for every request, and
    // hashing the raw value hashed a string.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(UInt8(ordinal))
    }

    /// The method's place in `allCases` (0 to 6).
    var ordinal: Int {
        switch self {
        case .options: 0
        case .get: 1
        case .head: 2
        case .post: 3
        case .put: 4
        case .patch: 5
        case .delete: 6
        }
    }
}
