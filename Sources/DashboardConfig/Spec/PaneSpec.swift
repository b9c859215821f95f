import FoundationEssentials
import ResourceEngine

/// One pane: which resource it watches, how often, and how it shows the data.
public struct PaneSpec: Sendable {
    public var title: String
    /// A path under the base URL, or an absolute URL.
    public var resource: ConfigString
    public var params: [(name: String, value: ConfigString)]
    public var method: RequestMethod
    public var body: RequestBodySpec?
    /// The named service (`services:`) the pane belongs to; nil: the `service:` section's.
    public var service: String?
    /// How often the pane is refreshed, start to start; nil: the `expiration` configured for its
    /// URL, else `DashboardSpec.defaultRefreshInterval`.
    public var every: TimeInterval?
    public var show: ShowMode
    public var fields: [DisplayField]?
    public var columns: [DisplayField]?
    /// How a value pane shows its value.
    public var format: ValueFormat?
    /// Places a `number` or `percent` value is rounded to (`decimals: 2`); nil keeps its digits.
    public var decimals: Int?
    /// The longest a failing pane waits between tries (`backoff: 1m`); nil: its `every`.
    public var backoff: TimeInterval?
    /// Colours for a value pane's value; `fail` makes the pane failing.
    public var thresholds: Thresholds?
    /// When the pane counts as failing and what happens then (the file's `alerts:` with the
    /// pane's own keys over it).
    public var alerts = AlertSpec()
    /// A JSON path applied when displaying (the resource's data stays whole, shared by panes).
    public var select: String?
    public var overlay: [OverlayRule]?
    /// How many recent probes to keep for the latency history (sparkline, p50/p95).
    public var history: Int
    /// How much of its row the pane takes (`size: 2`, `size: full`); one column by default.
    public var size = PaneSize.columns(1)
    /// `tags: [payments, edge]`: what `/#payments`, `snapshot --tag` and `serve --tag` choose
    /// panes by, and the metrics' `tag` label.
    public var tags: [String] = []

    /// Whether `scalar` may stand in a tag: an ASCII letter or digit, `-`, `_` or `.`.
    public static func isTagCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
    }

    /// Whether `text` is a tag: 1 to 40 tag characters.
    public static func isTag(_ text: String) -> Bool {
        (1...40).contains(text.unicodeScalars.count) && text.unicodeScalars.allSatisfy(isTagCharacter)
    }

    /// The same rule as a JSON Schema pattern.
    static let tagPattern = "^[A-Za-z0-9._-]{1,40}$"
    /// Conditions every response must meet; a pane that misses one is failing.
    public var expect: [Expectation]
    /// Where the pane starts in the file, for messages.
    public var line: Int
    /// Headers of this pane's own, over the service's and the configure blocks'.
    public var headers: [HeaderSpec] = []
    /// This pane's time limit, over the configured `timeout`.
    public var timeout: TimeInterval?
    /// `auth: none`: the pane's requests carry no `Authorization` (a "401 without a token" check).
    public var withoutAuth = false
    /// Stages of the pane's own pipeline, applied after the configure blocks; each replaces that
    /// stage's transformers for this pane's resource only.
    public var pipeline: [StageSpec] = []
    /// What its request takes from other panes' data (`${pane:…}`), or nil.
    public var chain: PaneChain?
    /// The panes it waits on (`dependsOn:`, its service's included): while one is in trouble,
    /// its own failure is blocked, not an alert.
    public var dependsOn: [PaneDependency] = []
    /// When it raises no alert (`quiet:`, its own or the file's).
    public var quiet: [QuietWindow] = []
    /// Its `quiet:` is its own (`quiet: []` included): the file's does not replace it.
    var quietOwn = false

    public init(
        title: String, resource: ConfigString, params: [(name: String, value: ConfigString)], method: RequestMethod,
        body: RequestBodySpec?, every: TimeInterval?, show: ShowMode, fields: [DisplayField]?, columns: [DisplayField]?, select: String?,
        overlay: [OverlayRule]?, history: Int, expect: [Expectation], line: Int
    ) {
        self.title = title
        self.resource = resource
        self.params = params
        self.method = method
        self.body = body
        self.every = every
        self.show = show
        self.fields = fields
        self.columns = columns
        self.select = select
        self.overlay = overlay
        self.history = history
        self.expect = expect
        self.line = line
    }

    /// What the pane's loads send beyond a plain GET (its method and body), or nil for a GET: a
    /// distinct request gets a resource of its own.
    public var loadRequest: LoadRequest? {
        guard method != .get || body != nil || !headers.isEmpty || timeout != nil || withoutAuth || !pipeline.isEmpty else { return nil }
        let data = body?.data
        var own: [String: String] = [:]
        for header in headers { own[header.name] = header.value.value }
        return LoadRequest(
            method: method, body: data, contentType: body?.effectiveContentType, headers: own,
            omittedHeaders: withoutAuth ? ["Authorization"] : [], timeout: timeout,
            adjustmentKey: pipeline.isEmpty ? nil : pipelineKey, adjustConfiguration: pipeline.isEmpty ? nil : pipelineAdjustment)
    }

    /// The pane's pipeline as text: what makes its resource's content differ.
    var pipelineKey: String {
        pipeline.map { "\($0.stage.rawValue)=\($0.transformers)" }.joined(separator: ";")
    }

    /// Replaces the stages the pane's pipeline names (validated when the file was loaded).
    var pipelineAdjustment: @MainActor @Sendable (inout Configuration) -> Void {
        let stages = pipeline.map { stage in (stage.stage.key, stage.transformers) }
        return { config in
            for (key, transformers) in stages {
                config.pipeline[key].removeTransformers()
                for spec in transformers { if let transformer = try? spec.makeTransformer() { config.pipeline[key].add(transformer) } }
            }
        }
    }

    /// True when an expectation is about the status code: then a 4xx or 5xx the expectations
    /// ask for ("status == 401") is the pane working, not failing.
    public var expectsStatus: Bool {
        expect.contains(where: \.readsStatus)
    }
}

/// How a pane renders its data.
public enum ShowMode: String, CaseIterable, Sendable {
    case fields, table, text, json, value
}

/// The status overlay's rules, as Siesta's `ResourceStatusOverlay` names them.
public enum OverlayRule: String, CaseIterable, Sendable {
    case loading, manualLoading, anyData, allData, error
}

/// The `layout:` section.
public struct LayoutSpec: Sendable {
    /// Panes across (fewer when the terminal is too narrow for them).
    public var columns: Int
    /// `columns: auto`: as many as the terminal's width gives room for, at `autoPaneWidth` each.
    public var autoColumns = false

    /// A pane's width with `columns: auto`.
    public static let autoPaneWidth = 40

    public init(columns: Int, autoColumns: Bool = false) {
        self.columns = columns
        self.autoColumns = autoColumns
    }
}

/// A pane's `size:` in the grid: how many columns of a row it spans, or the whole row.
public enum PaneSize: Sendable, Equatable {
    case columns(Int)
    case full
}
