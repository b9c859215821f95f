/// `theme:` — the colours the dashboard draws states in: a shipped theme by name, or a mapping
/// with a `base:` theme and a 256-colour index for any of the roles (`ok: 28`).
public struct ThemeSpec: Sendable, Equatable {
    /// The shipped themes.
    public enum Base: String, CaseIterable, Sendable {
        /// The terminal's own 16 colours (the default): whatever its palette makes of them.
        case terminal
        /// Bright colours for a dark background.
        case dark
        /// Deep colours for a light background (yellow text on white is 1.7:1).
        case light
        /// The brightest colours on black.
        case highContrast = "high-contrast"
        /// No colour: states by their symbols alone.
        case none
    }

    /// What the screens colour.
    public enum Role: String, CaseIterable, Sendable {
        case ok, failing, warning, accent
    }

    public var base = Base.terminal
    /// A 256-colour index per role, over the base theme's.
    public var roles: [Role: Int] = [:]

    public init(base: Base = .terminal, roles: [Role: Int] = [:]) {
        self.base = base
        self.roles = roles
    }
}
