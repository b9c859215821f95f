import DashboardConfig

/// The part of a pane's spec that says how its content is shown: made once per pane and shared by
/// every `PaneContent` the pane builds (one reference per response, not a copy of the whole spec
/// and a retain of each of its parts).
final class PaneContentShape: Sendable {
    let show: ShowMode
    let select: String?
    let fields: [DisplayField]?
    let columns: [DisplayField]?
    let format: ValueFormat?
    let decimals: Int?
    let thresholds: Thresholds?

    init(_ spec: PaneSpec) {
        show = spec.show
        select = spec.select
        fields = spec.fields
        columns = spec.columns
        format = spec.format
        decimals = spec.decimals
        thresholds = spec.thresholds
    }
}
