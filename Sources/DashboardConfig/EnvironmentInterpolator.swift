import Foundation
import Glibc

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

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read ${file:\(path)}: \(reason)"
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
        var files: [String] = []
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
            if inside.hasPrefix("file:") {
                let written = String(inside.dropFirst(5))
                let path = resolve(written)
                switch EnvironmentInterpolator.readSecretFile(path) {
                case .success(let value):
                    out += value
                    if !value.isEmpty, !fromEnvironment.contains(value) { fromEnvironment.append(value) }
                    if !files.contains(path) { files.append(path) }
                case .failure(let reason):
                    return .failure(.unreadable(path: written, reason: reason.message))
                }
                rest = after[after.index(after: close)...]
                continue
            }
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
        return .success(ConfigString(template: text, value: out, environmentValues: fromEnvironment, files: files))
    }

    /// `path` as written: `~/` under the home directory, relative under `folder`.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("~/") { return NSHomeDirectory() + String(path.dropFirst(1)) }
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
            return .success(text)
        case .failure(let failure):
            return .failure(ReadFailure(message: failure.message))
        }
    }
}
