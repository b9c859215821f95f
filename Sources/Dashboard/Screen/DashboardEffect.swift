import Monitor

/// What `update` asks the runtime to do once it has returned: work with the world, as data.
public enum DashboardEffect: Sendable {
    /// Load the pane's resource now, shown as a manual load (`r`).
    case reload(PaneID)
    /// Retry the pane's failed requests now (`t`).
    case retry(PaneID)
    /// Load every resource once, now (`R`).
    case reloadAll
    /// Pause or resume the monitor's refreshes (`p`).
    case setPaused(Bool)
    /// Mute the pane's alerts for a while, or until it recovers (nil) (`m`, `:mute`).
    case mute(PaneID, Double?)
    /// End the pane's mute (`m` again, `:unmute`).
    case unmute(PaneID)
    /// Show raw or formatted values (`v`).
    case setRawValues(Bool)
    /// Offer the text to the terminal's clipboard (OSC 52).
    case copyToClipboard(String)
    /// Hand the terminal to the pager with the pane's last body.
    case page(PaneID)
    /// Hand the terminal to `$EDITOR` with the config, then reload it (`E`).
    case editConfig
    /// Stop the process (Ctrl-Z).
    case suspend
    /// End with the status.
    case quit(Int32)
    /// Run the config the reload read (or keep the running one): answered by `configApplied`.
    indirect case applyConfig(ConfigReloader.Outcome)
    /// Tell the host of a notice (a headless run prints them).
    case notify(String)
    /// Draw: at once (`urgent`, a key) or paced with the background's frames.
    case frame(urgent: Bool)
    /// A resource changed: tick soon if the next tick is far, or for ages once nothing loads.
    case tickSoon
    /// Set the next tick for when the screen next reads differently.
    case tickAgain
}
