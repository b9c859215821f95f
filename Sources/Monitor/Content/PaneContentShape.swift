import DashboardConfig

/// The part of a pane's spec that says how its content is shown: made once per pane and shared by
/// every `PaneContent` the pane builds (one reference per response, not a copy of the whole spec
/// and a retain of each of its parts).
public final class PaneContentShape: Sendable {
    public let show: ShowMode
    public let select: String?
    public let fields: [DisplayField]?
    public let columns: [DisplayField]?
    public let format: ValueFormat?
    public let decimals: Int?
    public let thresholds: Thresholds?

    /// The shape `spec` says.
    public init(_ spec: PaneSpec) {
        show = spec.show
        select = spec.select
        fields = spec.fields
        columns = spec.columns
        format = spec.format
        decimals = spec.decimals
        thresholds = spec.thresholds
    }
}
