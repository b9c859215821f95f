import ArgumentParser

/// How the dashboard uses the terminal, beyond what the config says.
struct ScreenOptions: ParsableArguments {
    @Flag(help: "Leave the mouse to the terminal (select text as usual), whatever the config's mouse: says.")
    var noMouse = false

    /// Whether clicks and the wheel go to the dashboard: the config's `mouse:` unless `--no-mouse`.
    func mouse(configured: Bool) -> Bool { configured && !noMouse }
}
