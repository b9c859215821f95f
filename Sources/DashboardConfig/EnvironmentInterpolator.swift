/// Fills in `${VAR}` and `${VAR:-default}` from an environment.
///
/// `$${` writes a literal `${`. An unset variable without a default is an error naming it; so is
/// an unterminated `${`.
public struct EnvironmentInterpolator: Sendable {
    public let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unset(String)
        case unterminated
        case badName(String)

        public var description: String {
            switch self {
            case .unset(let name): "environment variable \(name) is not set (use ${\(name):-default} for a fallback)"
            case .unterminated: "unterminated ${ in value"
            case .badName(let name): "\"\(name)\" is not a valid environment variable name"
            }
        }
    }

    /// The interpolated string, or the first problem.
    public func interpolate(_ text: String) -> Result<ConfigString, Failure> {
        guard text.contains("$") else { return .success(ConfigString(text)) }
        var out = ""
        var fromEnvironment: [String] = []
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[dollar...].dropFirst()
            if after.hasPrefix("${") {
                out += "${"
                rest = after.dropFirst(2)
                continue
            }
            guard after.hasPrefix("{") else {
                out += "$"
                rest = after
                continue
            }
            guard let close = after.firstIndex(of: "}") else { return .failure(.unterminated) }
            let inside = after[after.index(after: after.startIndex)..<close]
            let name: Substring
            var fallback: Substring?
            if let separator = inside.range(of: ":-") {
                name = inside[..<separator.lowerBound]
                fallback = inside[separator.upperBound...]
            } else {
                name = inside
            }
            guard let first = name.first, first == "_" || first.isLetter,
                name.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber }), name.allSatisfy(\.isASCII)
            else { return .failure(.badName(String(name))) }
            if let value = environment[String(name)], !(value.isEmpty && fallback != nil) {
                out += value
                if !value.isEmpty, !fromEnvironment.contains(value) { fromEnvironment.append(value) }
            } else if let fallback {
                out += fallback
            } else {
                return .failure(.unset(String(name)))
            }
            rest = after[after.index(after: close)...]
        }
        out += rest
        return .success(ConfigString(template: text, value: out, environmentValues: fromEnvironment))
    }
}
