@testable import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import ResourceEngineTesting
import TerminalUI
import Testing

/// Themes: every shipped theme's text colours reach 4.5:1 against the background it is made
/// for (computed from the 256-colour palette), a theme colours the screen, and `none` none of it.
@MainActor
@Suite struct ThemeTests {
    @Test(arguments: [ThemeSpec.Base.dark, .light, .highContrast])
    func everyTextColourOfAShippedThemeReadsAgainstItsBackground(base: ThemeSpec.Base) throws {
        let palette = try #require(Theme.palette(ThemeSpec(base: base)))
        for index in 0..<16 {
            let color = try #require(palette.map(Color.indexed(UInt8(index))).paletteIndex)
            let ratio = Palette.contrast(Palette.rgb(color), palette.background)
            #expect(ratio >= 4.5, "\(base.rawValue): colour \(index) drawn as \(color) is \(ratio):1")
        }
    }

    /// Why the themes exist: the terminal's own yellow on white, as xterm draws it.
    @Test func xtermsYellowOnWhiteIsWhatTheLightThemeReplaces() {
        #expect(Palette.contrast(Palette.rgb(3), 0xFFFFFF) < 2)
        #expect(abs(Palette.contrast(0x000000, 0xFFFFFF) - 21) < 0.01)
        #expect(Palette.rgb(16) == 0x000000 && Palette.rgb(231) == 0xFFFFFF && Palette.rgb(244) == 0x808080 && Palette.rgb(28) == 0x008700)
    }

    func failingPane(theme: String) async throws -> DashboardHarness {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: Payments, resource: /payments }
            theme: \(theme)
            """, columns: 60, rows: 10)
        h.stub("payments", .json("{}", status: 503))
        h.app.start()
        try await h.settle()
        return h
    }

    @Test func aThemeColoursTheStatesAndARoleCanBeChanged() async throws {
        var h = try await failingPane(theme: "light")
        #expect(h.backend.buffer[0, 1].style.foreground == .indexed(160), "a failing border in the light theme's red")
        h = try await failingPane(theme: "{ base: light, failing: 124 }")
        #expect(h.backend.buffer[0, 1].style.foreground == .indexed(124))
    }

    /// `:theme` changes the colours for this run, over the config's.
    @Test func theCommandLineChangesTheTheme() async throws {
        let h = try await failingPane(theme: "light")
        #expect(h.backend.buffer[0, 1].style.foreground == .indexed(160))
        var keys: [KeyEvent] = [.character(":")] + "theme high".map { KeyEvent.character($0) }
        keys += [.tab, .enter]
        for key in keys { h.app.send(.key(key)) }
        try await h.settle()
        #expect(h.backend.buffer[0, 1].style.foreground == .indexed(196), "high-contrast's red")
    }

    @Test func noneDrawsNoColourAndTheStateStillShows() async throws {
        let h = try await failingPane(theme: "none")
        for cell in h.backend.buffer.cells {
            #expect(cell.style.foreground == .default && cell.style.background == .default)
        }
        #expect(h.screen[1].contains("error"), "the state in words: \(h.screen[1])")
    }
}
