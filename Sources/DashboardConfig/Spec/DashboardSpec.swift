import DashboardKeys
import Redaction

/// A validated config file: the service, its per-pattern configuration, the panes and the layout.
///
/// Only `ConfigLoader` makes one, and only from a file with no problems, so everything in it has
/// been checked: URLs parse, transformers build, durations are positive, titles are unique.
public struct DashboardSpec: Sendable {
    /// The file it came from, as given.
    public var file: String
    public var title: String
    /// The `service:` section: the default for panes that name no service.
    public var service: ServiceSpec
    /// The `services:` section, in file order.
    public var services: [ServiceSpec] = []
    public var configure: [ConfigureBlockSpec]
    public var panes: [PaneSpec]
    /// The top-level `alerts:` section: every pane's defaults (each pane's own are in its spec).
    public var alerts = AlertSpec()
    public var layout: LayoutSpec
    /// `mouse:` — clicks and the wheel work in the dashboard (true, the default); false leaves the
    /// mouse to the terminal, for selecting text as before.
    public var mouse = true
    /// URLs that say whether this machine has the network (`connectivity:`): when every one
    /// fails, no pane's alert fires until one answers again.
    public var connectivity: [ConfigString] = []
    /// The dependencies Hammock sees for itself (`implicitDependencies:`).
    public var implicitDependencies = ImplicitDependencies()
    /// Where firing alerts go (`alertmanager:`), or nil.
    public var alertmanager: AlertmanagerSpec?
    /// `theme:` — the colours states are drawn in.
    public var theme = ThemeSpec()
    /// What a check without secrets found missing (unset variables, unreadable files), each at
    /// its place; always empty for a spec loaded to run.
    public var warnings: [ConfigProblem] = []
    /// `keys:` over a user's `keys.yaml` over the standard keys: what each key does where.
    public var keyMap = KeyMap.standard
    /// Secret values whose places are not kept: environment and file values in request bodies,
    /// login requests, digest and OAuth2 credentials.
    public var bodySecrets: [String] = []
    /// Secrets learnt while running (rotated token files, login tokens); every `Redactor` made
    /// for this spec masks them.
    public var liveSecrets = LiveSecrets()
    /// Secrets of the config this one replaced (its own and those it learnt while running): still
    /// masked, never sent, until the next reload replaces them in turn.
    public var retiredSecrets: [String] = []
}
