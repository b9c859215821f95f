/// One mistake in a config file, with where it is.
///
/// Printed as `path/to/file.yaml:LINE:COL: message`, the form editors and terminals link to.
public struct ConfigProblem: Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Every mistake found in a config file; loading fails with all of them at once.
public struct ConfigErrors: Error, Sendable, CustomStringConvertible {
    public let problems: [ConfigProblem]

    public init(_ problems: [ConfigProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
