import DashboardConfig
import FoundationEssentials
import Redaction
import ResourceEngine

/// Panes whose requests take values from other panes (`${pane:Latest order:items[0].id}`): the
/// observer graph Siesta gives an app. When a source's data changes, each pane that takes a value
/// from it works its request out again and, when that changed, moves to the resource it names
/// and loads it; while a source has no such value the pane waits, and says on what.
extension Monitor {
    /// Finds each chained probe's sources and works out its request from what they hold now
    /// (nothing, or data from a cache): before anything observes or loads.
    func linkChains() {
        dependents = [:]
        let byTitle = Dictionary(probes.map { ($0.spec.title, $0) }) { first, _ in first }
        for probe in probes {
            guard let chain = probe.spec.chain else { continue }
            probe.chainSources = chain.sources.compactMap { byTitle[$0] }
            probe.chainSecrets = spec.liveSecrets.source()
            probe.writtenURL = chain.writtenURL(of: probe.spec, base: spec.serviceSpec(for: probe.spec).baseURL?.value)
            for source in probe.chainSources { dependents[ObjectIdentifier(source), default: []].append(probe) }
        }
        for probe in probes where probe.spec.chain != nil { resolveChain(of: probe) }
    }

    /// After new data for `resource`: each pane that takes a value from one of its probes works
    /// its request out again.
    func resolveDependents(ofProbesOf shown: ResourceProbes) {
        guard !dependents.isEmpty else { return }
        for source in shown.probes {
            for dependent in dependents[ObjectIdentifier(source)] ?? [] { resolveChain(of: dependent) }
        }
    }

    /// Works out `probe`'s request from its sources' latest data, and moves it to the resource
    /// that request names (or to its waiting resource, with the reason).
    func resolveChain(of probe: Probe) {
        guard let chain = probe.spec.chain else { return }
        var values: [String: String] = [:]
        var missing: String?
        for reference in chain.references {
            guard let source = probe.chainSources.first(where: { $0.spec.title == reference.source }) else { continue }
            switch Self.value(of: reference, in: source) {
            case .success(let value): values[reference.written] = value
            case .failure(let reason): missing = missing ?? reason.message
            }
        }
        // A value it will send as a credential is a secret from the moment it is known, before
        // any pane shows it: its source's own pane shows it masked.
        if let slot = probe.chainSecrets { spec.liveSecrets.replace(chain.secretValues(values), for: slot) }
        if let missing { return wait(probe, missing) }
        switch chain.resolved(probe.spec, values: values) {
        case .failure(let failure):
            let sources = chain.sources.joined(separator: ", ")
            wait(probe, "waiting for \(sources): \(failure.message)")
        case .success(let resolved):
            let resource = spec.resource(for: resolved, in: services)
            guard resource !== probe.resource || probe.waitingFor != nil else { return }
            // As written, with the values filled in; one sent as a credential masked.
            let url = redactor.redactURL(spec.displayURL(for: resolved))
            move(probe, to: resource, requestSpec: resolved, waitingFor: nil, url: url, news: ("RequestChanged", "now " + url))
        }
    }

    /// Parks `probe` on its own never-loaded resource, saying why.
    private func wait(_ probe: Probe, _ reason: String) {
        let reason = redactor.redact(reason).bounded(to: 2_000)
        guard probe.waitingFor != reason else { return }
        move(probe, to: spec.resource(for: probe.spec, in: services), requestSpec: probe.spec, waitingFor: reason, url: probe.displayURL, news: ("Waiting", reason))
    }

    /// Moves `probe` to `resource`: the monitor's record of which probes watch which resource,
    /// its observers, the host's (`onProbeMoved`), the probe's verdict, the event log (`news`)
    /// and its cadence; then the panes that take values from it, whose source's data is now the
    /// new resource's.
    private func move(
        _ probe: Probe, to resource: Resource, requestSpec: PaneSpec, waitingFor: String?, url: String, news: (event: String, message: String)
    ) {
        let old = probe.resource
        if resource !== old {
            let oldID = ObjectIdentifier(old)
            if let shown = probesByResource[oldID] {
                shown.remove(probe)
                if shown.probes.isEmpty {
                    probesByResource[oldID] = nil
                    if started { old.removeObservers(ownedBy: eventOwner) }
                }
            }
            if addProbe(probe, on: resource, url: url, method: requestSpec.method.httpName), started { observe(resource) }
        }
        probe.move(to: resource, requestSpec: requestSpec, waitingFor: waitingFor)
        recount(probe)
        if resource !== old { onProbeMoved?(probe, old) }
        log(news.event, probe: probe, message: news.message)
        if started {
            if refreshesOnItsOwn {
                updateCadence(of: probe)
            } else {
                // A one-off look loads each pane once: this one's request is known only now.
                probe.loadIfNeeded()
            }
        }
        onStateChange?()
        for dependent in dependents[ObjectIdentifier(probe)] ?? [] { resolveChain(of: dependent) }
    }

    /// The longest value a pane sends on, in bytes.
    static let longestChainedValue = 2_048

    /// The text a reference stands for in `source`'s latest data, or why there is none.
    static func value(of reference: PaneChain.Reference, in source: Probe) -> Result<String, PaneChain.ChainFailure> {
        let name = reference.source
        func failure(_ why: String) -> Result<String, PaneChain.ChainFailure> {
            .failure(PaneChain.ChainFailure(message: "waiting for \(name): \(why)"))
        }
        guard let data = source.resource.latestData else {
            return .failure(PaneChain.ChainFailure(message: "waiting for \(name)"))
        }
        var value = ContentCheck.json(from: data.content)
        if let path = reference.path {
            do {
                value = try path.evaluate(value)
            } catch {
                return failure(error.message)
            }
        }
        let what = reference.path?.text ?? "its data"
        switch value {
        case .string(let text):
            if text.isEmpty { return failure("\(what) is empty") }
            // A value goes into a URL or a header: a document is not one.
            if text.utf8.count > Self.longestChainedValue {
                return failure("\(what) is \(text.utf8.count) bytes long; a value sent on is at most \(Self.longestChainedValue)")
            }
            return .success(text)
        case .int(let number): return .success(String(number))
        case .double(let number): return .success(JSON.format(number))
        case .bigInteger(let digits): return .success(digits)
        case .bool(let flag): return .success(flag ? "true" : "false")
        case .null: return failure("\(what) is null")
        case .array, .object: return failure("\(what) is \(value.kindName), not one value")
        }
    }
}
