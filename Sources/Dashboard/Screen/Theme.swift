import DashboardConfig
import TerminalUI

/// The shipped themes as palettes: what each named colour the screens use is drawn as, from the
/// 256-colour palette (whose colours are known, so a test holds every theme's text colours to
/// 4.5:1 against the background it is made for).
enum Theme {
    /// The named colours each role stands for (and their bright forms).
    static let roleColors: [ThemeSpec.Role: [Int]] = [.ok: [2, 10], .failing: [1, 9], .warning: [3, 11], .accent: [6, 14]]

    /// A theme's named colours, 0–15: black, red, green, yellow, blue, magenta, cyan, white, then
    /// the bright forms.
    static func named(_ base: ThemeSpec.Base) -> [Int]? {
        switch base {
        case .terminal, .none: nil
        case .dark: [244, 203, 78, 221, 111, 176, 81, 252, 246, 203, 78, 221, 111, 176, 81, 255]
        case .light: [16, 160, 28, 130, 19, 90, 25, 238, 240, 160, 28, 130, 19, 90, 25, 235]
        case .highContrast: [250, 196, 46, 226, 75, 201, 51, 231, 250, 196, 46, 226, 75, 201, 51, 231]
        }
    }

    /// The background a theme is made for.
    static func background(_ base: ThemeSpec.Base) -> UInt32 {
        base == .light ? 0xFFFFFF : 0x000000
    }

    /// The palette `spec` asks for; nil for the terminal's own colours with nothing overridden.
    static func palette(_ spec: ThemeSpec) -> Palette? {
        if spec.base == .none { return Palette.none }
        var named: [Color?] = named(spec.base).map { $0.map { Color.indexed(UInt8($0)) } } ?? Array(repeating: nil, count: 16)
        for (role, index) in spec.roles {
            for color in roleColors[role] ?? [] { named[color] = .indexed(UInt8(clamping: index)) }
        }
        guard named.contains(where: { $0 != nil }) else { return nil }
        return Palette(named: named, background: background(spec.base))
    }
}
