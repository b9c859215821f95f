/// A header's or credential's value that comes from files (`${file:…}`): what the config says
/// of it, for a running service to read again when the files change (`LiveConfigValue`, in
/// the monitor). A description only: the config reads nothing after it is loaded.
public struct LiveValueSource: Sendable {
    /// The value as read at load.
    public let initial: ConfigString
    /// How the template is read again (its environment and folder).
    public let interpolator: EnvironmentInterpolator
    /// Makes the sent value from the interpolated text (`Bearer …`, a Basic encoding).
    public let transform: @Sendable (String) -> String
    /// Why a new text cannot be used (nil: it can), as the loader said of the first.
    public let validate: @Sendable (String) -> String?

    public init(
        _ initial: ConfigString, interpolator: EnvironmentInterpolator, transform: @escaping @Sendable (String) -> String = { $0 },
        validate: @escaping @Sendable (String) -> String? = LiveValueSource.headerValueProblem
    ) {
        self.initial = initial
        self.interpolator = interpolator
        self.transform = transform
        self.validate = validate
    }

    /// Why `text` cannot be a header's value: empty, or with a line break or a control character.
    public static let headerValueProblem: @Sendable (String) -> String? = { text in
        if text.isEmpty { return "is empty" }
        if text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) { return "has a line break" }
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) { return "has a control character" }
        return nil
    }
}
