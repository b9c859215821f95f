import Redaction
import ResourceEngine

/// What a pane's request takes from other panes' data: `resource: /orders/${pane:Latest
/// order:items[0].id}`. The places that hold a `${pane:…}` (the resource, a param, a header), the
/// references, and how to fill them in; the monitor fills them in from the sources' latest data
/// and moves the pane to the resource that makes.
public struct PaneChain: Sendable {
    /// One `${pane:TITLE:PATH}`.
    public struct Reference: Sendable, Equatable {
        /// What follows `pane:`, as written: the key its value is given under.
        public let written: String
        /// The source pane's title.
        public let source: String
        /// Where in the source's data the value is (`items[0].id`); nil: the whole content.
        public let path: JSONPath?
        /// Where it is written, for messages.
        public let line: Int
        public let column: Int

        public init(written: String, source: String, path: JSONPath?, line: Int, column: Int) {
            self.written = written
            self.source = source
            self.path = path
            self.line = line
            self.column = column
        }

        /// "Latest order" or "Latest order:items[0].id", as messages name it.
        public var name: String { path.map { "\(source):\($0.text)" } ?? source }
    }

    /// Where a reference stands in the request.
    public enum Place: Sendable, Equatable {
        /// The resource: its value goes in percent-encoded, so it stays one path segment or query value.
        case resource
        /// A param's value: encoded when the URL is made, as any param's.
        case param(String)
        /// A header's value: as it is, once it is one line without control characters.
        case header(String)
    }

    /// One place with references, as its template was written.
    public struct Field: Sendable {
        public let place: Place
        public let pieces: [EnvironmentInterpolator.Piece]
    }

    public internal(set) var fields: [Field]
    /// Every reference, each written text once, in file order.
    public internal(set) var references: [Reference]
    /// Reads the environment and files of the templates again when they are filled in.
    let interpolator: EnvironmentInterpolator

    /// The titles of the panes this one takes values from, each once.
    public var sources: [String] {
        references.reduce(into: []) { titles, reference in if !titles.contains(reference.source) { titles.append(reference.source) } }
    }

    /// What a pane's request holds before the sources have data: the reference as written, encoded
    /// where it must travel in a URL. It names a resource of its own that is never loaded.
    static func placeholder(_ written: String, in place: Place) -> String {
        let text = "${pane:" + written + "}"
        if case .resource = place { return WrittenURL.formEscaped(text) }
        return text
    }

    /// `pane` with the reference values filled in (by `Reference.written`), or why it cannot be
    /// sent: a value a header cannot carry, a file that can no longer be read.
    public func resolved(_ pane: PaneSpec, values: [String: String]) -> Result<PaneSpec, ChainFailure> {
        var resolved = pane
        for field in fields {
            var missing: String?
            let template = EnvironmentInterpolator.template(of: field.pieces) { written in
                guard let value = values[written] else {
                    missing = written
                    return ""
                }
                if case .resource = field.place { return WrittenURL.formEscaped(value) }
                return value
            }
            if let missing { return .failure(ChainFailure(message: "no value for ${pane:\(missing)}")) }
            let string: ConfigString
            switch interpolator.interpolate(template) {
            case .success(let value): string = value
            case .failure(let failure): return .failure(ChainFailure(message: "\(failure)"))
            }
            switch field.place {
            case .resource:
                resolved.resource = string
            case .param(let name):
                guard let index = resolved.params.firstIndex(where: { $0.name == name }) else { continue }
                resolved.params[index].value = string
            case .header(let name):
                if let problem = LiveValueSource.headerValueProblem(string.value) {
                    return .failure(ChainFailure(message: "header \(name) \(problem) once filled in"))
                }
                guard let index = resolved.headers.firstIndex(where: { $0.name == name }) else { continue }
                resolved.headers[index] = HeaderSpec(name: name, value: string)
            }
        }
        return .success(resolved)
    }

    /// The pane's URL with its variables filled in and each reference as written
    /// (`http://127.0.0.1:8731/orders/${pane:Orders:items[0].id}`): what names it in `/metrics`,
    /// whatever values it takes.
    public func writtenURL(of pane: PaneSpec, base: String?) -> String {
        func text(_ place: Place, _ fallback: String) -> String {
            guard let field = fields.first(where: { $0.place == place }) else { return fallback }
            let template = EnvironmentInterpolator.template(of: field.pieces) { "${pane:" + $0 + "}" }
            return (try? interpolator.interpolate(template).get().value) ?? fallback
        }
        let resource = text(.resource, pane.resource.value)
        let params = pane.params.map { ($0.name, text(.param($0.name), $0.value.value)) }
        return WrittenURL.absolute(base: base, written: resource, params: params, encoding: false) ?? resource
    }

    /// Why a chained pane's request cannot be made.
    public struct ChainFailure: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }

        public init(message: String) {
            self.message = message
        }
    }

    /// The values that go where a credential goes (a header or param named like one, or
    /// `Authorization`): secrets, masked in every output from the moment they are sent.
    public func secretValues(_ values: [String: String]) -> [String] {
        var secret: [String] = []
        for field in fields {
            let name: String
            switch field.place {
            case .resource: continue
            case .param(let param): name = param
            case .header(let header): name = header
            }
            guard CredentialName.matches(name) || name.lowercased() == "authorization" else { continue }
            for piece in field.pieces {
                if case .pane(let written) = piece, let value = values[written], !secret.contains(value) { secret.append(value) }
            }
        }
        return secret
    }
}
