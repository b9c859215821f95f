/// The HTTP methods a request can use. Raw values are lower case; they are sent upper-cased.
public enum RequestMethod: String, CaseIterable, Sendable {
    case options, get, head, post, put, patch, delete

    /// The method as it goes on the wire ("GET").
    public var httpName: String { rawValue.uppercased() }

    /// The method for an HTTP method string; unknown names count as `.get` for configuration.
    public init(httpName: String?) {
        self = httpName.flatMap { RequestMethod(rawValue: $0.lowercased()) } ?? .get
    }
}
