import FoundationEssentials

/// What the engine sends: a URL, a method, headers, a body and a time limit, as a plain value.
///
/// It reads as `URLRequest` does (`setValue(_:forHTTPHeaderField:)`, `httpBody`,
/// `allHTTPHeaderFields`…), so request mutations read as Siesta's guide writes them, but it is
/// not Foundation's networking type: on Linux each `URLRequest` mutation copies an
/// `NSURLRequest`, and `URLRequest` brings FoundationNetworking into every program that sends a
/// request. Header names are matched without regard to case and keep the case they were first
/// set with; a value with a line break is refused (as `URLRequest` refuses it), so no header can
/// smuggle another.
public struct OutgoingRequest: Sendable, Equatable {
    /// Where it goes.
    public var url: URL?
    /// The method, `GET` unless set (nil reads as `GET` when sent).
    public var httpMethod: String? = "GET"
    /// The body sent, if any.
    public var httpBody: Data?
    /// Seconds before the transfer gives up (not finite or 0: never).
    public var timeoutInterval: TimeInterval = 60
    /// Headers in the order they were first set.
    private var fields: [(name: String, value: String)] = []

    /// A GET of `url` with no headers, no body and a 60-second limit.
    public init(url: URL?) {
        self.url = url
    }

    /// Sets a header (replacing any of that name, whatever its case), or removes it with nil.
    public mutating func setValue(_ value: String?, forHTTPHeaderField name: String) {
        let index = fields.firstIndex { $0.name.caseInsensitiveEquals(name) }
        guard let value, !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
            if let index { fields.remove(at: index) }
            return
        }
        if let index { fields[index].value = value } else { fields.append((name, value)) }
    }

    /// Adds a value to a header: joined to an existing one with a comma, as HTTP folds them.
    public mutating func addValue(_ value: String, forHTTPHeaderField name: String) {
        guard let existing = self.value(forHTTPHeaderField: name) else { return setValue(value, forHTTPHeaderField: name) }
        setValue(existing + "," + value, forHTTPHeaderField: name)
    }

    /// A header's value, whatever the case of its name.
    public func value(forHTTPHeaderField name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every header, by name; nil when there is none (as `URLRequest` says it). Setting it
    /// replaces them all.
    public var allHTTPHeaderFields: [String: String]? {
        get { fields.isEmpty ? nil : Dictionary(fields.map { ($0.name, $0.value) }) { first, _ in first } }
        set {
            fields = []
            for (name, value) in newValue ?? [:] { setValue(value, forHTTPHeaderField: name) }
        }
    }

    /// The headers as set, in order.
    public var headerFields: [(name: String, value: String)] { fields }

    /// The same URL, method, body, limit and headers (names as set, in order).
    public static func == (a: OutgoingRequest, b: OutgoingRequest) -> Bool {
        a.url == b.url && (a.httpMethod ?? "GET") == (b.httpMethod ?? "GET") && a.httpBody == b.httpBody && a.timeoutInterval == b.timeoutInterval
            && a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// Equal ignoring ASCII case (header names are ASCII tokens).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8
        let b = other.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            let lowerX = (0x41...0x5A).contains(x) ? x | 0x20 : x
            let lowerY = (0x41...0x5A).contains(y) ? y | 0x20 : y
            if lowerX != lowerY { return false }
        }
        return true
    }
}
