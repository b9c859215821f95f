import DashboardConfig
import DashboardKeys
import FoundationEssentials
import Monitor
import Redaction
import ResourceEngine
import TerminalUI
import TextBasics

/// The zoom's detail views: the response (status line, headers, body), the request (method, URL,
/// headers, body), the timing (libcurl's phases, the history) and the error (message, cause,
/// body, since when). Every text goes through the pane's redactor.
extension DashboardView {
    /// One line of a detail view.
    struct DetailLine: Equatable {
        var text: String
        var style: Style = .plain

        static func heading(_ text: String) -> DetailLine { DetailLine(text: text, style: Style().bolded) }
        static let blank = DetailLine(text: "")
    }

    /// The lines of `view` for `pane` (not for `.data`, which draws the pane's content).
    func detailLines(_ view: ZoomView, of pane: PaneState) -> [DetailLine] {
        let redact = { (text: String) in pane.redactor.redact(text) }
        switch view {
        case .data: return []
        case .response: return responseLines(pane, redact: redact)
        case .request: return requestLines(pane, redact: redact)
        case .timing: return timingLines(pane, redact: redact)
        case .error: return errorLines(pane, redact: redact)
        case .changes: return changeLines(pane)
        }
    }

    /// What changed in the pane's answers, newest first: when, then each path with its old and
    /// new value (for text, the lines). Redacted when they were recorded.
    private func changeLines(_ pane: PaneState) -> [DetailLine] {
        let changes = pane.probe.changes
        guard !changes.isEmpty else {
            return [DetailLine(text: "No change seen yet: each new answer is compared with the one before.", style: Style().dimmed)]
        }
        var lines: [DetailLine] = [.heading("\(changes.count) change\(changes.count == 1 ? "" : "s"), newest first")]
        for change in changes.reversed() {
            lines.append(.blank)
            lines.append(DetailLine(text: Formatting.clock(change.time, timeZone: timeZone) + "  " + Formatting.age(max(0, now - change.time)), style: Style().bolded))
            for item in change.diff.changes {
                let style = item.old == nil ? Style().fg(.green) : item.new == nil ? Style().fg(.red) : Style.plain
                lines.append(DetailLine(text: "  " + Sanitizer.line(item.line), style: style))
            }
            if change.diff.more > 0 { lines.append(DetailLine(text: "  … \(change.diff.more) more", style: Style().dimmed)) }
        }
        return lines
    }

    /// The latest exchange's answer: the error's when it is newer than the data.
    private func latestAnswer(of pane: PaneState) -> (entity: Entity?, status: Int?, isError: Bool) {
        let resource = pane.probe.resource
        if let error = resource.latestError, error.timestamp >= (resource.latestData?.timestamp ?? -.infinity) {
            return (error.entity, error.httpStatusCode, true)
        }
        return (resource.latestData, resource.latestMetrics?.statusCode, false)
    }

    private func responseLines(_ pane: PaneState, redact: (String) -> String) -> [DetailLine] {
        let answer = latestAnswer(of: pane)
        let resource = pane.probe.resource
        var lines: [DetailLine] = []
        if let status = answer.status {
            let style = status >= 400 ? Style().fg(.red).bolded : Style().fg(.green).bolded
            lines.append(DetailLine(text: "HTTP \(status) \(HTTPStatus.reasonPhrase(for: status))", style: style))
        } else if let error = resource.latestError, answer.isError {
            lines.append(DetailLine(text: "no response: " + redact(error.userMessage), style: Style().fg(.red).bolded))
        } else if answer.entity != nil {
            lines.append(.heading("from the cache (no exchange in this run yet)"))
        } else {
            return [DetailLine(text: resource.isLoading ? "loading…" : "no response yet", style: Style().dimmed)]
        }
        var facts = ["\(pane.request.method.httpName) \(pane.displayURL)"]
        if let metrics = resource.latestMetrics {
            facts.append(Formatting.latency(metrics.latency))
            facts.append(ValueFormatter.bytes(Double(metrics.bodyBytes)))
            facts.append(Formatting.age(max(0, now - metrics.finishedAt)))
        }
        lines.append(DetailLine(text: facts.joined(separator: " · "), style: Style().dimmed))
        lines += certificateLines(pane, redact: redact)
        guard let entity = answer.entity else { return lines }
        lines.append(.blank)
        for (name, value) in entity.headers.sorted(by: { $0.key < $1.key }) {
            lines.append(DetailLine(text: "\(name): \(redact(HeaderSpec.shownResponseValue(name: name, value: value)))"))
        }
        lines.append(.blank)
        lines += prettyBody(entity, of: pane, isError: answer.isError).map { DetailLine(text: $0) }
        return lines
    }

    /// The last answer's body as the response view shows it (redacted, pretty when JSON), for
    /// the pager; nil when there is none.
    func bodyText(of pane: PaneState) -> String? {
        let answer = latestAnswer(of: pane)
        guard let entity = answer.entity else { return nil }
        return prettyBody(entity, of: pane, isError: answer.isError).joined(separator: "\n") + "\n"
    }

    /// `entity`'s body redacted and pretty-printed, worked out once per answer.
    private func prettyBody(_ entity: Entity, of pane: PaneState, isError: Bool) -> [String] {
        let key = ViewCaches.PrettyBodyKey(pane: pane.id, timestamp: entity.timestamp, isError: isError)
        if let lines = caches.prettyBodies[key] { return lines }
        let lines = PaneContent.textLines(ContentCheck.json(from: pane.redactor.redact(content: entity.content)), pretty: true)
        // Only the latest few: the zoom shows one pane at a time.
        if caches.prettyBodies.count >= 4 { caches.prettyBodies.removeAll() }
        caches.prettyBodies[key] = lines
        return lines
    }

    private func requestLines(_ pane: PaneState, redact: (String) -> String) -> [DetailLine] {
        let request = pane.request
        var lines: [DetailLine] = [.heading("\(request.method.httpName) \(pane.displayURL)")]
        let sent = pane.redactor.redactURL(request.url.absoluteString)
        if sent != pane.displayURL { lines.append(DetailLine(text: "sent as " + sent, style: Style().dimmed)) }
        var headers = request.headersNow
        // A login's token goes in the header and after the scheme the login names.
        let service = spec.serviceSpec(for: pane.spec)
        var login: LoginSpec?
        if case .session(let session)? = service.auth, !pane.spec.withoutAuth, spec.isUnderItsServiceBase(pane.spec) { login = session }
        if let login { headers = headers.filter { $0.key.lowercased() != login.header.lowercased() } }
        if !headers.isEmpty || login != nil { lines.append(.blank) }
        for (name, value) in headers.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            lines.append(DetailLine(text: "\(name): \(redact(value))"))
        }
        if let login {
            let scheme = login.scheme.isEmpty ? "" : login.scheme + " "
            lines.append(DetailLine(text: "\(login.header): \(scheme)••• (from the service's login, renewed as it expires)", style: Style().dimmed))
        }
        if let body = pane.spec.body {
            lines.append(.blank)
            // In its own place a member named like a credential is masked, whatever wrote it.
            let text = body.shown
            let json = PaneContent.jsonIfParsed(text)
            let shown = json.map { PaneContent.textLines(pane.redactor.redact(content: $0) as? JSON ?? $0, pretty: true) } ?? Sanitizer.lines(redact(text))
            lines += shown.map { DetailLine(text: $0) }
        }
        var notes: [String] = []
        let timeout = request.timeout
        if timeout.isFinite, timeout > 0 { notes.append("timeout \(ValueFormatter.duration(timeout))") }
        if request.tlsInsecure { notes.append("TLS not verified") }
        if request.keepsCookies { notes.append("cookies kept") }
        if !notes.isEmpty {
            lines.append(.blank)
            lines.append(DetailLine(text: notes.joined(separator: " · "), style: Style().dimmed))
        }
        return lines
    }

    /// The https server's certificate: subject, issuer, and when it expires (red within 7 days,
    /// yellow within 30); nothing for plain HTTP.
    private func certificateLines(_ pane: PaneState, redact: (String) -> String) -> [DetailLine] {
        guard let metrics = pane.probe.resource.latestMetrics, let certificate = metrics.certificate else { return [] }
        let left = certificate.notAfter - now
        let date = ValueFormatter.localTime(certificate.notAfter, timeZone: timeZone)
        let expiry = left < 0 ? "expired \(ValueFormatter.duration(-left)) ago" : "in \(ValueFormatter.duration(left))"
        return [
            .blank, .heading("TLS certificate"),
            DetailLine(text: "subject     " + Sanitizer.line(redact(certificate.subject))),
            DetailLine(text: "issuer      " + Sanitizer.line(redact(certificate.issuer))),
            DetailLine(
                text: "expires     \(date) (\(expiry))",
                style: left < 7 * 86_400 ? Style().fg(.red).bolded : left < 30 * 86_400 ? Style().fg(.yellow) : .plain),
        ]
    }

    private func timingLines(_ pane: PaneState, redact: (String) -> String) -> [DetailLine] {
        var lines: [DetailLine] = []
        if let metrics = pane.probe.resource.latestMetrics {
            lines.append(.heading("Last probe: \(metrics.statusCode.map(String.init) ?? "no response") · \(Formatting.latency(metrics.latency)) · \(Formatting.age(max(0, now - metrics.finishedAt)))"))
            if let timing = metrics.timing {
                // libcurl reports no connect or TLS time for a connection it reused.
                let reused = timing.connect == nil && timing.firstByte != nil
                let https = pane.request.url.scheme?.lowercased() == "https"
                let phases: [(String, TimeInterval?, String)] = [
                    ("DNS", timing.nameLookup, reused ? "— (cached)" : "—"),
                    ("connect", timing.connect, reused ? "— (connection reused)" : "—"),
                    ("TLS", timing.tlsHandshake, !https ? "— (plain HTTP)" : reused ? "— (connection reused)" : "—"),
                    ("first byte", timing.firstByte, "—"), ("total", timing.total, "—"),
                ]
                for (name, value, missing) in phases {
                    let text = value.map { ValueFormatter.duration($0) } ?? missing
                    lines.append(DetailLine(text: "  " + name.padded(toLength: 12) + text))
                }
                if timing.redirects > 0 { lines.append(DetailLine(text: "  redirects   \(timing.redirects)")) }
                lines.append(DetailLine(text: "  (each phase from the start of the transfer)", style: Style().dimmed))
            }
        } else {
            lines.append(DetailLine(text: "no probe yet", style: Style().dimmed))
        }
        lines += certificateLines(pane, redact: redact)
        lines.append(.blank)
        guard let history = history(for: pane), !history.probes.isEmpty else {
            lines.append(DetailLine(text: "no history yet", style: Style().dimmed))
            return lines
        }
        let count = history.probes.count
        let span = (history.probes.last?.time ?? 0) - (history.probes.first?.time ?? 0)
        lines.append(.heading("History: last \(count) probe\(count == 1 ? "" : "s") over \(ValueFormatter.duration(span))"))
        let uptime = Formatting.uptime(ok: history.okCount, of: count) ?? "—"
        lines.append(DetailLine(text: "  uptime      \(uptime) (\(history.okCount) of \(count) ok)", style: history.okCount < count ? Style().fg(.yellow) : .plain))
        if let p50 = history.percentile(50), let p95 = history.percentile(95), let max = history.probes.filter(\.answered).map(\.latency).max() {
            lines.append(DetailLine(text: "  p50 \(Formatting.latency(p50))   p95 \(Formatting.latency(p95))   max \(Formatting.latency(max))   (answered probes only)"))
        }
        return lines
    }

    private func errorLines(_ pane: PaneState, redact: (String) -> String) -> [DetailLine] {
        guard let error = pane.probe.resource.latestError else {
            if let problem = pane.probe.failure ?? pane.probe.unmetExpectation {
                return [DetailLine(text: problem, style: Style().fg(.red).bolded)] + alertLines(pane, redact: redact)
            }
            return [DetailLine(text: "no error: the last load worked", style: Style().dimmed)] + alertLines(pane, redact: redact)
        }
        var lines: [DetailLine] = []
        let message = redact(error.userMessage)
        var status = error.httpStatusCode.map { "\($0) \(HTTPStatus.reasonPhrase(for: $0))" } ?? ""
        if !status.isEmpty, !status.hasSuffix(message) { status += " · " + message }
        lines.append(DetailLine(text: "✗ " + (status.isEmpty ? message : status), style: Style().fg(.red).bolded))
        // Since when: the oldest failed probe of the run of failures that ends now.
        if let history = history(for: pane) {
            let failures = history.probes.reversed().prefix { !$0.answered }
            if let first = failures.last {
                let since = Formatting.clock(first.time, timeZone: timeZone)
                lines.append(DetailLine(text: "failing since \(since) (\(Formatting.age(max(0, now - first.time)))), \(failures.count) probe\(failures.count == 1 ? "" : "s") in a row"))
            }
        }
        if let data = pane.probe.resource.latestData {
            lines.append(DetailLine(text: "last good data \(Formatting.age(max(0, now - data.timestamp)))", style: Style().dimmed))
        }
        var cause = error.cause.map { $0 as any Error }
        var depth = 0
        while let current = cause, depth < 5 {
            lines.append(DetailLine(text: (depth == 0 ? "cause: " : "  ← ") + redact(String(describing: current))))
            cause = (current as? RequestError)?.cause
            depth += 1
        }
        lines += alertLines(pane, redact: redact)
        if let entity = error.entity {
            lines.append(.blank)
            lines.append(.heading("Error body (\(entity.contentType))"))
            lines += prettyBody(entity, of: pane, isError: true).map { DetailLine(text: $0) }
        }
        return lines
    }

    /// The pane's state and alert: why it is degraded, since when its alert fires, what it does.
    private func alertLines(_ pane: PaneState, redact: (String) -> String) -> [DetailLine] {
        let alerts = pane.spec.alerts
        var state = "state       \(pane.health.name)"
        if let reason = pane.probe.degradedReason { state += ": " + redact(reason) }
        let stateLine = DetailLine(text: state, style: pane.health == .ok ? .plain : Style().fg(pane.health == .failing ? .red : .yellow))
        // Without `alerts:` a pane fails on its first failed probe and does nothing more: only a
        // degraded state (a warn threshold) needs saying.
        guard alerts.configured else { return pane.health == .degraded ? [.blank, stateLine] : [] }
        var lines: [DetailLine] = [.blank, .heading("Alert"), stateLine]
        if pane.probe.alert.firing, let fired = pane.probe.alert.firedAt {
            var text = "firing      since \(Formatting.clock(fired, timeZone: timeZone)) (\(Formatting.age(max(0, now - fired))))"
            if let remind = alerts.remind { text += ", reminding every \(DurationText.format(remind))" }
            lines.append(DetailLine(text: text))
        }
        lines.append(DetailLine(text: "rule        fails after \(alerts.failAfter) failed probe\(alerts.failAfter == 1 ? "" : "s") in a row, ok after \(alerts.recoverAfter) good"))
        var actions: [String] = []
        if alerts.bell { actions.append("bell") }
        if alerts.notify { actions.append("notify") }
        if let program = alerts.exec.first { actions.append("exec " + URL(fileURLWithPath: program).lastPathComponent) }
        if let webhook = alerts.webhook { actions.append("webhook " + redact(webhook.url.display)) }
        if !actions.isEmpty, !alerts.onResolved { actions.append("(not on recovery)") }
        lines.append(DetailLine(text: "actions     " + (actions.isEmpty ? "none" : actions.joined(separator: ", "))))
        return lines
    }

    /// Draws a detail view of the zoomed pane: its lines from the pane's scroll, the search's
    /// matches highlighted, and under the timing view the history chart.
    func renderDetail(_ view: ZoomView, of pane: PaneState, into area: Rect, buffer: inout Buffer) {
        drawn.panes.append(pane.id)
        let block = Block(
            title: "\(pane.title) · \(view.name)", rightTitle: statusText(for: pane), borderStyle: Style().fg(.cyan).bolded,
            titleStyle: Style().bolded.fg(.cyan), rightTitleStyle: Style().dimmed)
        block.render(into: area, buffer: &buffer)
        var inner = block.inner(area).inset(horizontal: 1)
        guard !inner.isEmpty else { return }
        if view == .timing, let history = history(for: pane), history.probes.count >= 2, inner.height >= 12 {
            renderHistoryChart(history, into: Rect(x: inner.x, y: inner.bottom - 5, width: inner.width, height: 5), buffer: &buffer)
            inner.height -= 6
        }
        let lines = detailLines(view, of: pane)
        let start = min(max(0, scroll(of: pane)), max(0, lines.count - 1))
        for (row, line) in lines.dropFirst(start).prefix(inner.height).enumerated() {
            let text = Sanitizer.line(line.text)
            let matched = PaneContent.matches(text, zoomSearch)
            buffer.setString(x: inner.x, y: inner.y + row, DisplayWidth.truncate(text, to: inner.width), style: matched ? line.style.reversed : line.style)
        }
    }

    /// The lines the zoom's current view of `pane` has at `width` (after wrapping, for `.data`).
    func zoomLineCount(_ pane: PaneState, width: Int) -> Int {
        zoomView == .data ? content(of: pane)?.lineCount(width: width) ?? 0 : detailLines(zoomView, of: pane).count
    }

    /// The rows a search in the zoom's current view of `pane` looks through, in order.
    func searchRows(_ pane: PaneState, width: Int) -> [String] {
        zoomView == .data ? content(of: pane)?.searchRows(width: width) ?? [] : detailLines(zoomView, of: pane).map(\.text)
    }
}
