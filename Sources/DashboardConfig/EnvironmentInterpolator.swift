import FoundationEssentials
import Glibc
import ResourceEngine

/// Fills in `${VAR}` and `${VAR:-default}` from an environment, and `${file:PATH}` from a file.
///
/// `$${` writes a literal `${`. An unset variable without a default is an error naming it; so is
/// an unterminated `${`. A file's contents go in without their trailing line breaks; a relative
/// `PATH` is under `folder` (the config file's), `~/` under the home directory. What came from the
/// environment or a file is secret (`ConfigString.environmentValues`), and the files read are kept
/// (`ConfigString.files`) so a value can be read again when one changes.
public struct EnvironmentInterpolator: Sendable {
    public let environment: [String: String]
    /// Where relative `${file:…}` paths start; the working directory when nil.
    public let folder: String?

    public init(environment: [String: String], folder: String? = nil) {
        self.environment = environment
        self.folder = folder
    }

    /// The largest file `${file:…}` reads: a token or a password, not a document.
    public static let largestFile = 64 << 10

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unset(String)
        case unterminated
        case badName(String)
        case unreadable(path: String, reason: String)
        /// `${pane:…}` where no other pane's value can go (see `PaneChain`).
        case paneReference(String)

        public var description: String {
            switch self {
            case .paneReference(let written): "${pane:\(written)} can only stand in a pane's resource, params or headers"
            case .unreadable(let path, let reason): "cannot read ${file:\(path)}: \(reason)"
            case .unset(let name): "environment variable \(name) is not set (use ${\(name):-default} for a fallback)"
            case .unterminated: "unterminated ${ in value"
            case .badName(let name): "\"\(name)\" is not a valid environment variable name"
            }
        }
    }

    /// One part of a value as written: text, or a reference to fill in.
    public enum Piece: Equatable, Sendable {
        /// Text as it is (`$${` already turned into `${`).
        case literal(String)
        /// `${NAME}`, or `${NAME:-fallback}` with the fallback used when NAME is unset or empty.
        case variable(name: String, fallback: String?)
        /// `${file:PATH}`, PATH as written.
        case file(String)
        /// `${pane:TITLE:PATH}`: a value from another pane's data, what follows `pane:` as written.
        case pane(String)
    }

    /// `text` split into literal text and references, or the first problem in how it is written.
    public static func pieces(of text: String) -> Result<[Piece], Failure> {
        guard text.contains("$") else { return .success([.literal(text)]) }
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(text)
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
        }
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let after = rest[dollar...].dropFirst()
            if after.hasPrefix("${") {
                literal += "${"
                rest = after.dropFirst(2)
                continue
            }
            guard after.hasPrefix("{") else {
                literal += "$"
                rest = after
                continue
            }
            guard let close = after.firstIndex(of: "}") else { return .failure(.unterminated) }
            let inside = after[after.index(after: after.startIndex)..<close]
            rest = after[after.index(after: close)...]
            flush()
            if inside.hasPrefix("file:") {
                pieces.append(.file(String(inside.dropFirst(5))))
                continue
            }
            if inside.hasPrefix("pane:") {
                pieces.append(.pane(String(inside.dropFirst(5))))
                continue
            }
            let name: Substring
            var fallback: Substring?
            if let separator = inside.firstRange(of: ":-") {
                name = inside[..<separator.lowerBound]
                fallback = inside[separator.upperBound...]
            } else {
                name = inside
            }
            guard let first = name.first, first == "_" || first.isLetter,
                name.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber }), name.allSatisfy(\.isASCII)
            else { return .failure(.badName(String(name))) }
            pieces.append(.variable(name: String(name), fallback: fallback.map(String.init)))
        }
        literal += rest
        flush()
        return .success(pieces)
    }

    /// `text` as a config writes it to mean exactly `text`: every `${` doubled, so no variable
    /// or file is read (what an import copies from a document or a command).
    public static func literal(_ text: String) -> String {
        text.replacing("${", with: "$${")
    }

    /// The interpolated string, or the first problem. `pane` gives what each `${pane:…}` stands
    /// for; without it, one is a problem.
    public func interpolate(_ text: String, pane: ((String) -> String)? = nil) -> Result<ConfigString, Failure> {
        interpolate(text, lenient: false, pane: pane).map(\.value)
    }

    /// `pieces` written back as a template, each `${pane:…}` replaced by what `pane` gives (which
    /// is taken as literal text: its `${` doubled).
    public static func template(of pieces: [Piece], pane: (String) -> String) -> String {
        pieces.map { piece in
            switch piece {
            case .literal(let text): literal(text)
            case .variable(let name, let fallback): "${" + name + (fallback.map { ":-" + $0 } ?? "") + "}"
            case .file(let path): "${file:" + path + "}"
            case .pane(let written): literal(pane(written))
            }
        }.joined()
    }

    /// What a value stands in for a variable that is not set or a file that cannot be read, when
    /// a config is checked without its secrets (`interpolateWithoutSecrets`).
    public static let placeholder = "unset"

    /// The interpolated string with `placeholder` for every unset variable and unreadable file
    /// (each named in `missing`), or a problem in how the text is written.
    public func interpolateWithoutSecrets(_ text: String, pane: ((String) -> String)? = nil) -> Result<(value: ConfigString, missing: [Failure]), Failure> {
        interpolate(text, lenient: true, pane: pane)
    }

    private func interpolate(_ text: String, lenient: Bool, pane: ((String) -> String)?) -> Result<(value: ConfigString, missing: [Failure]), Failure> {
        guard text.contains("$") else { return .success((ConfigString(text), [])) }
        let pieces: [Piece]
        switch Self.pieces(of: text) {
        case .success(let split): pieces = split
        case .failure(let failure): return .failure(failure)
        }
        var out = ""
        var missing: [Failure] = []
        var fromEnvironment: [String] = []
        var files: [String] = []
        for piece in pieces {
            switch piece {
            case .literal(let text):
                out += text
            case .pane(let written):
                guard let pane else { return .failure(.paneReference(written)) }
                out += pane(written)
            case .file(let written):
                let path = resolve(written)
                switch EnvironmentInterpolator.readSecretFile(path) {
                case .success(let value):
                    out += value
                    if !value.isEmpty, !fromEnvironment.contains(value) { fromEnvironment.append(value) }
                    if !files.contains(path) { files.append(path) }
                case .failure(let reason):
                    guard lenient else { return .failure(.unreadable(path: written, reason: reason.message)) }
                    missing.append(.unreadable(path: written, reason: reason.message))
                    out += Self.placeholder
                }
            case .variable(let name, let fallback):
                if let value = environment[name], !(value.isEmpty && fallback != nil) {
                    out += value
                    if !value.isEmpty, !fromEnvironment.contains(value) { fromEnvironment.append(value) }
                } else if let fallback {
                    out += fallback
                } else if lenient {
                    missing.append(.unset(name))
                    out += Self.placeholder
                } else {
                    return .failure(.unset(name))
                }
            }
        }
        return .success((ConfigString(template: text, value: out, environmentValues: fromEnvironment, files: files), missing))
    }

    /// `path` as written: `~/` under the home directory, relative under `folder`.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("~/") { return FileManager.default.homeDirectoryForCurrentUser.path + String(path.dropFirst(1)) }
        if path.hasPrefix("/") { return path }
        let base = folder ?? FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: base).appendingPathComponent(path).path
    }

    struct ReadFailure: Error {
        let message: String
    }

    /// A secret file's text without trailing line breaks; a file that is not UTF-8, is too large
    /// or not a regular file is refused with the reason.
    static func readSecretFile(_ path: String) -> Result<String, ReadFailure> {
        guard !path.isEmpty else { return .failure(ReadFailure(message: "no path given")) }
        switch ConfigLoader.read(path, limit: largestFile, what: "file") {
        case .success(let data):
            guard var text = String(validating: data, as: UTF8.self) else { return .failure(ReadFailure(message: "the file is not UTF-8 text")) }
            while let last = text.unicodeScalars.last, last == "\n" || last == "\r" { text.unicodeScalars.removeLast() }
            // An empty secret is a file read mid-write or the wrong file, never a credential.
            guard !text.isEmpty else { return .failure(ReadFailure(message: "the file is empty")) }
            return .success(text)
        case .failure(let failure):
            return .failure(ReadFailure(message: failure.message))
        }
    }
}
