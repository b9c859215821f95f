import Glibc

/// A theme's colours: each of the terminal's 16 named colours (what the screens ask for: green
/// for ok, red for failing, yellow for warnings, cyan for the selection) drawn as a colour of the
/// 256-colour palette, whose red, green and blue are known, so its contrast can be computed; or,
/// with `none`, no colour at all.
public struct Palette: Sendable, Equatable {
    /// What each named colour (0–15) is drawn as; nil leaves it as the terminal's own.
    public var named: [Color?]
    /// The background the theme is made for, as 0xRRGGBB.
    public var background: UInt32

    public init(named: [Color?], background: UInt32) {
        self.named = Array(named.prefix(16)) + Array(repeating: nil, count: max(0, 16 - named.count))
        self.background = background
    }

    /// Every colour the terminal's default: the state is in the symbols alone (as with `NO_COLOR`).
    public static let none = Palette(named: Array(repeating: .default, count: 16), background: 0x000000)

    /// The colour `color` is drawn as.
    public func map(_ color: Color) -> Color {
        guard let index = color.paletteIndex, index < 16, let mapped = named[index] else { return color }
        return mapped
    }

    /// `style` with its colours mapped.
    public func map(_ style: Style) -> Style {
        var mapped = style
        mapped.foreground = map(style.foreground)
        mapped.background = map(style.background)
        return mapped
    }

    /// The red, green and blue of a 256-colour index as xterm draws it (0–15: xterm's defaults).
    public static func rgb(_ index: Int) -> UInt32 {
        let system: [UInt32] = [
            0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
            0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
        ]
        if index < 16 { return system[max(0, index)] }
        if index >= 232 {
            let level = UInt32(8 + (index - 232) * 10)
            return level << 16 | level << 8 | level
        }
        let cube = index - 16
        let steps: [UInt32] = [0, 95, 135, 175, 215, 255]
        return steps[cube / 36] << 16 | steps[cube / 6 % 6] << 8 | steps[cube % 6]
    }

    /// WCAG 2's contrast ratio of two colours given as 0xRRGGBB (1 to 21).
    public static func contrast(_ a: UInt32, _ b: UInt32) -> Double {
        func luminance(_ rgb: UInt32) -> Double {
            func channel(_ value: UInt32) -> Double {
                let c = Double(value & 0xFF) / 255
                return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(rgb >> 16) + 0.7152 * channel(rgb >> 8) + 0.0722 * channel(rgb)
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
