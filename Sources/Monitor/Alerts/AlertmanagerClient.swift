import DashboardConfig
import FoundationEssentials
import Redaction
import ResourceEngine

/// Firing alerts into Alertmanager: each alert posted when it fires (`POST /api/v2/alerts`),
/// posted again every `resend` while it fires (Alertmanager resolves an alert it has not heard
/// of within its `resolve_timeout`), and posted with `endsAt` when it resolves. Blocked panes
/// and quiet windows never get here: the monitor decides what fires, Alertmanager's silences
/// and inhibitions work on top.
@MainActor
final class AlertmanagerClient {
    /// One alert as Alertmanager takes it.
    struct Alert {
        var labels: [(String, String)]
        var annotations: [(String, String)]
        var startsAt: TimeInterval
        var endsAt: TimeInterval?

        func json(generatorURL: String?) -> JSON {
            var object: JSONObject = [
                "labels": .object(JSONObject(labels.map { ($0.0, JSON.string($0.1)) })),
                "annotations": .object(JSONObject(annotations.map { ($0.0, JSON.string($0.1)) })),
                "startsAt": .string(EventLine.timestamp(startsAt)),
            ]
            if let endsAt { object["endsAt"] = .string(EventLine.timestamp(endsAt)) }
            if let generatorURL { object["generatorURL"] = .string(generatorURL) }
            return .object(object)
        }
    }

    let spec: AlertmanagerSpec
    private let resource: Resource
    private let scheduler: any DashboardScheduler
    private let redactor: Redactor
    /// Firing alerts, by probe.
    private(set) var firing: [ObjectIdentifier: Alert] = [:]
    private var timer: ScheduledAction?
    /// Where an alert's `generatorURL` points (`serve`'s `/api/panes`), when there is one.
    var generatorURL: String?
    /// Told of a post that failed, with a line for the screen or stderr.
    var onFailure: (@MainActor (String) -> Void)?

    init(spec: AlertmanagerSpec, service: Service, scheduler: any DashboardScheduler, redactor: Redactor) {
        self.spec = spec
        let base = spec.url.value.hasSuffix("/") ? spec.url.value : spec.url.value + "/"
        resource = service.resource(absoluteURL: base + "api/v2/alerts")
        self.scheduler = scheduler
        self.redactor = redactor
    }

    /// Posts `alert` for `id` now, and keeps sending it while it fires.
    func fire(_ alert: Alert, for id: ObjectIdentifier) {
        firing[id] = alert
        post([alert])
        scheduleResend()
    }

    /// Posts the alert of `id` as resolved at `time`, and stops sending it.
    func resolve(_ id: ObjectIdentifier, at time: TimeInterval) {
        guard var alert = firing.removeValue(forKey: id) else { return }
        alert.endsAt = time
        post([alert])
        if firing.isEmpty {
            timer?.cancel()
            timer = nil
        }
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    private func scheduleResend() {
        guard timer == nil else { return }
        timer = scheduler.schedule(after: spec.resend) { [weak self] in
            guard let self else { return }
            self.timer = nil
            guard !self.firing.isEmpty else { return }
            self.post(Array(self.firing.values))
            self.scheduleResend()
        }
    }

    /// Posts in flight.
    var requests: [Request] { resource.allRequests }

    private func post(_ alerts: [Alert]) {
        let body = JSON.array(alerts.map { $0.json(generatorURL: generatorURL) })
        resource.request(.post, json: body).onCompletion { [weak self] info in
            guard let self, case .failure(let error) = info.response else { return }
            let status = error.httpStatusCode.map { "\($0) " } ?? ""
            self.onFailure?(self.redactor.redact("alertmanager \(self.spec.url.display): \(status)\(error.userMessage)"))
        }
    }
}
