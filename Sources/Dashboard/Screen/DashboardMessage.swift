import DashboardKeys
import Monitor
import TerminalUI

/// Everything that can change the dashboard's model, with what it carries.
public enum DashboardMessage: Sendable {
    case key(KeyEvent)
    /// A grid action chosen without its key (a click on an error's Try again).
    case action(KeyAction)
    case resized
    /// The panes as they stand (after the monitor started or ran a new config), in its order.
    case panes([PaneState])
    /// A probed resource had an event: the model catches up (`probed`) before anything next
    /// reads it.
    case probesChanged
    /// A chained pane's request changed (it moved to another resource, or waits): its new state.
    case paneMoved(PaneState)
    /// What panes' probes say now, after their resources' events.
    case probed([(PaneID, ProbeReport)])
    /// How many loads the user started for a pane are in flight.
    case manualLoads(PaneID, Int)
    /// An alert reminder fired: what the panes say may read differently.
    case reminded
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
