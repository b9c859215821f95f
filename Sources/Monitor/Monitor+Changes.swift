import DashboardConfig
import FoundationEssentials
import Redaction
import ResourceEngine

/// What changed, and when: every new answer from the server whose content differs from the one
/// before (an answer from the cache counts as the one before) is diffed; each probe of the
/// resource keeps its latest changes (zoom's changes view), the event log says `ContentChanged`
/// with the paths, and `alerts.onChange` acts on a change (of the paths it names).
extension Monitor {
    /// How many changes a probe keeps.
    public static let keptChanges = 20

    func noteContent(of resource: Resource, shown: ResourceProbes, from source: ResourceEvent.NewDataSource) {
        guard let content = resource.latestData?.content else { return }
        let previous = shown.lastContent
        let current = ContentValue(content)
        shown.lastContent = current
        guard source == .network, let previous, let current, !previous.isSame(as: current) else { return }
        let diff = ContentDiff.between(previous.value, content).redacted(by: redactor)
        guard !diff.isEmpty else { return }
        let now = clock.now
        for probe in shown.probes {
            probe.changes.append(Probe.ContentChange(time: now, diff: diff))
            if probe.changes.count > Self.keptChanges { probe.changes.removeFirst(probe.changes.count - Self.keptChanges) }
        }
        let entry = EventLog.Entry(
            time: now, url: shown.url, method: shown.method, panes: shown.titles, event: "ContentChanged", statusCode: resource.latestMetrics?.statusCode,
            latency: nil, message: diff.summary)
        eventLog.append(entry)
        onEvent?(entry)
        for probe in shown.probes {
            guard let watched = probe.spec.alerts.onChange, let changed = Self.changes(in: diff, under: watched) else { continue }
            act(.changed, on: probe, message: changed, since: nil)
        }
    }


    /// The changes of `diff` under `paths` as a line (`version: "1.4.2" → "1.4.3"`); any change
    /// when `paths` is empty; nil when none is under them.
    static func changes(in diff: ContentDiff, under paths: [String]) -> String? {
        guard !paths.isEmpty else { return diff.summary }
        let matching = diff.changes.filter { change in
            paths.contains { path in change.path == path || change.path.hasPrefix(path + ".") || change.path.hasPrefix(path + "[") }
        }
        return matching.isEmpty ? nil : matching.prefix(3).map(\.line).joined(separator: "; ") + (matching.count > 3 ? " (+\(matching.count - 3) more)" : "")
    }
}

extension ContentDiff {
    /// The same changes with every value passed through `redactor` (a token that changed is
    /// still a secret).
    func redacted(by redactor: Redactor) -> ContentDiff {
        var copy = ContentDiff()
        copy.changes = changes.map { Change(path: $0.path, old: $0.old.map(redactor.redact), new: $0.new.map(redactor.redact)) }
        copy.more = more
        return copy
    }
}
