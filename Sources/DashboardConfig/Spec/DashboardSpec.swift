/// A validated config file: the service, its per-pattern configuration, the panes and the layout.
///
/// Only `ConfigLoader` makes one, and only from a file with no problems, so everything in it has
/// been checked: URLs parse, transformers build, durations are positive, titles are unique.
public struct DashboardSpec: Sendable {
    /// The file it came from, as given.
    public var file: String
    public var title: String
    public var service: ServiceSpec
    public var configure: [ConfigureBlockSpec]
    public var panes: [PaneSpec]
    public var layout: LayoutSpec
    /// Environment values used in request bodies.
    public var bodySecrets: [String] = []
}
