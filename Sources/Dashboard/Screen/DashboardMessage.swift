import Monitor
import TerminalUI

/// Everything that can change the dashboard's model, with what it carries.
public enum DashboardMessage: Sendable {
    case key(KeyEvent)
    case resized
    /// A probed resource's state changed (an event, an overlay change, a reminder).
    case resourceChanged
    case tick
    /// The config file changed: the outcome of reading it again (indirect: a whole spec would
    /// make every message as large as it).
    indirect case configReloaded(ConfigReloader.Outcome)
    /// What the monitor made of a reload.
    case configApplied(Monitor.ReloadResult)
    /// Something the user should know, for the status line ("the config is not watched: …").
    case notice(String)
    /// A one-line answer for the footer (an alert action failed, the pager could not run).
    case flash(String)
}
