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

    /// One line whatever the message quotes: a value's line break shows as `␤`, so a config
    /// cannot forge a line of `check`'s output (a `✓`).
    public var description: String {
        let text = "\(file):\(line):\(column): \(message)"
        guard text.unicodeScalars.contains(where: ConfigProblem.breaksLine) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(ConfigProblem.breaksLine(scalar) ? "\u{2424}" : scalar) }
        return String(out)
    }

    /// Line and paragraph breaks: LF, VT, FF, CR, NEL, U+2028, U+2029.
    static func breaksLine(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}

/// Every mistake found in a config file; loading fails with all of them at once.
public struct ConfigErrors: Error, Sendable, CustomStringConvertible {
    public let problems: [ConfigProblem]
    /// Checked without secrets: what is missing, found before the problems stopped the load.
    public var warnings: [ConfigProblem] = []

    public init(_ problems: [ConfigProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
