/// A string from a config file after `${VAR}` interpolation, remembering what it was written as.
///
/// `template` is the text as written (`Bearer ${SHOP_TOKEN}`); `value` has the variables filled
/// in. Anything that came from the environment or a file (`${file:…}`) is treated as secret: displays and logs show the
/// template, never the value.
public struct ConfigString: Sendable, Hashable, CustomStringConvertible {
    public let template: String
    public let value: String
    /// What the environment put into `value`, each variable's value once (defaults written in the
    /// file are not secret: the file shows them).
    public let environmentValues: [String]
    /// The files `${file:…}` read into `value`, as full paths.
    public let files: [String]

    public init(template: String, value: String, environmentValues: [String] = [], files: [String] = []) {
        self.template = template
        self.value = value
        self.environmentValues = environmentValues
        self.files = files
    }

    /// A plain string with no interpolation.
    public init(_ literal: String) {
        self.init(template: literal, value: literal)
    }

    /// True when part of the value came from the environment.
    public var fromEnvironment: Bool { template != value || template.contains("${") }

    /// Safe to show: the template when the environment was involved, else the value.
    public var display: String { fromEnvironment ? template : value }

    public var description: String { display }
}
