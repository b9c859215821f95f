import FoundationEssentials
import Glibc
import Redaction
import ResourceEngine

extension ConfigLoader {
    static let alertKeys = ["failAfter", "recoverAfter", "bell", "notify", "exec", "timeout", "webhook", "remind", "onResolved", "onChange"]
    static let webhookKeys = ["url", "headers", "body"]
    static let alertmanagerKeys = ["url", "labels", "resend"]
    static let quietKeys = ["days", "from", "to", "zone"]

    /// `quiet:` — one window or a list of them.
    static func readQuiet(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> [QuietWindow]? {
        let items: [YAMLNode]
        if case .sequence(let sequence) = node { items = Array(sequence) } else { items = [node] }
        var windows: [QuietWindow] = []
        for item in items {
            guard let entries = reader.mapping(item, "a \(what) window") else { return nil }
            reader.checkKeys(entries, allowed: quietKeys, in: "a \(what) window")
            var window = QuietWindow(from: -1, to: -1)
            for entry in entries {
                switch entry.key {
                case "from", "to":
                    guard let text = reader.string(entry.value, "\(what).\(entry.key)") else { return nil }
                    let parts = text.split(separator: ":")
                    guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...24).contains(hour), (0...59).contains(minute),
                        hour * 60 + minute <= 1_440
                    else {
                        reader.problem(at: entry.value, "\(what).\(entry.key) must be a time of day like \"02:30\", not \"\(text)\"")
                        return nil
                    }
                    if entry.key == "from" { window.from = hour * 60 + minute } else { window.to = hour * 60 + minute }
                case "days":
                    let names: [YAMLNode]
                    if case .sequence(let sequence) = entry.value { names = Array(sequence) } else { names = [entry.value] }
                    for name in names {
                        guard let text = reader.string(name, "\(what).days"), let index = QuietWindow.dayNames.firstIndex(of: String(text.lowercased().prefix(3))) else {
                            reader.problem(at: name, "\(what).days: days are \(QuietWindow.dayNames.joined(separator: ", "))")
                            return nil
                        }
                        if !window.days.contains(index + 1) { window.days.append(index + 1) }
                    }
                case "zone":
                    guard let text = reader.string(entry.value, "\(what).zone") else { return nil }
                    guard let zone = ZoneInfo(identifier: text) else {
                        reader.problem(at: entry.value, "\(what).zone: unknown time zone \"\(text)\" (UTC, Europe/Berlin…)")
                        return nil
                    }
                    window.zone = zone
                default: break
                }
            }
            guard window.from >= 0, window.to >= 0 else {
                reader.problem(at: item, "a \(what) window needs from and to (e.g. { from: \"02:00\", to: \"03:00\" })")
                return nil
            }
            guard window.from != window.to else {
                reader.problem(at: item, "a \(what) window from \(window.summary) is empty")
                return nil
            }
            windows.append(window)
        }
        return windows
    }

    /// `alertmanager: { url: http://127.0.0.1:9093/, labels: { team: ops }, resend: 1m }`.
    static func readAlertmanager(_ node: YAMLNode, reader: inout NodeReader) -> AlertmanagerSpec? {
        guard let entries = reader.mapping(node, "alertmanager") else { return nil }
        reader.checkKeys(entries, allowed: alertmanagerKeys, in: "alertmanager")
        guard let urlEntry = entries.first(where: { $0.key == "url" }) else {
            reader.problem(at: node, "alertmanager needs a url (e.g. url: http://127.0.0.1:9093/)")
            return nil
        }
        guard let url = reader.interpolated(urlEntry.value, "alertmanager.url") else { return nil }
        guard isHTTPURL(url.value) || reader.holdsPlaceholder(urlEntry.value) else {
            reader.problem(at: urlEntry.value, "alertmanager.url \"\(url.display)\" must be an http or https URL")
            return nil
        }
        var spec = AlertmanagerSpec(url: url)
        for entry in entries {
            switch entry.key {
            case "resend":
                if let seconds = reader.duration(entry.value, "alertmanager.resend", minimum: 10) {
                    if seconds > 3_600 { reader.problem(at: entry.value, "alertmanager.resend must be at most 1h (Alertmanager forgets an alert not sent again within its resolve_timeout)") } else { spec.resend = seconds }
                }
            case "labels":
                guard let labels = reader.mapping(entry.value, "alertmanager.labels") else { continue }
                for label in labels {
                    guard AlertmanagerSpec.isLabelName(label.key) else {
                        reader.problem(at: label.keyNode, "alertmanager.labels: \"\(label.key)\" is not a label name (letters, digits and _, not first a digit)")
                        continue
                    }
                    if let value = reader.interpolated(label.value, "alertmanager.labels.\(label.key)") { spec.labels.append((label.key, value.value)) }
                }
            default: break
            }
        }
        return spec
    }

    /// An `alerts:` mapping over `base` (the defaults, or the top-level section for a pane): only
    /// the keys it names change. Nil after reporting a problem.
    static func readAlerts(_ node: YAMLNode, base: AlertSpec, what: String, reader: inout NodeReader) -> AlertSpec? {
        guard let entries = reader.mapping(node, what) else { return nil }
        reader.checkKeys(entries, allowed: alertKeys, in: what)
        let problemsBefore = reader.problems.count
        var spec = base
        spec.configured = true
        for entry in entries {
            let name = "\(what).\(entry.key)"
            switch entry.key {
            case "failAfter": spec.failAfter = reader.int(entry.value, name, range: 1...1_000) ?? spec.failAfter
            case "recoverAfter": spec.recoverAfter = reader.int(entry.value, name, range: 1...1_000) ?? spec.recoverAfter
            case "bell": spec.bell = reader.bool(entry.value, name) ?? spec.bell
            case "notify": spec.notify = reader.bool(entry.value, name) ?? spec.notify
            case "onResolved": spec.onResolved = reader.bool(entry.value, name) ?? spec.onResolved
            case "onChange":
                // true: any change; false: none; a path or a list of paths: a change under one of them.
                if let flag = entry.value.bool, entry.value.scalar.map({ ["true", "false"].contains($0.string) }) == true {
                    spec.onChange = flag ? [] : nil
                } else if let paths = reader.stringList(entry.value, name) {
                    for path in paths where (try? JSONPath(path)) == nil {
                        reader.problem(at: entry.value, "\(name): \"\(path)\" is not a JSON path (items[0].id, version)")
                    }
                    spec.onChange = paths
                }
            case "timeout":
                if let seconds = reader.duration(entry.value, name, minimum: 0.1) {
                    if seconds > AlertSpec.longestTimeout {
                        reader.problem(at: entry.value, "\(name) must be at most \(DurationText.format(AlertSpec.longestTimeout))")
                    } else {
                        spec.timeout = seconds
                    }
                }
            case "remind":
                // `remind: off` (or false) silences reminders a default asked for.
                if entry.value.bool == false || entry.value.scalar?.string == "off" {
                    spec.remind = nil
                } else {
                    spec.remind = reader.duration(entry.value, name, minimum: 10) ?? spec.remind
                }
            case "exec": spec.exec = readExec(entry.value, name, reader: &reader) ?? spec.exec
            case "webhook":
                if entry.value.isNull || entry.value.bool == false || entry.value.scalar?.string == "off" {
                    spec.webhook = nil
                } else {
                    spec.webhook = readWebhook(entry.value, name, reader: &reader) ?? spec.webhook
                }
            default: break
            }
        }
        return reader.problems.count == problemsBefore ? spec : nil
    }

    /// `exec: ["./on-alert.sh", "arg"]`: a program and its arguments, no shell. A program written
    /// with a slash is a file (relative to the config's folder) that must be executable; a bare
    /// name is looked up on PATH. A string without spaces is a program with no arguments.
    static func readExec(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> [String]? {
        if case .scalar(let scalar) = node, scalar.string.contains(where: \.isWhitespace) {
            reader.problem(
                at: node,
                "\(what) is run without a shell: give the program and its arguments as a list, e.g. [\"./on-alert.sh\", \"--page\"]")
            return nil
        }
        guard var argv = reader.stringList(node, what) else { return nil }
        guard let program = argv.first else { return [] }
        guard !program.isEmpty, !argv.contains(where: { $0.contains("\0") }) else {
            reader.problem(at: node, "\(what): the program must be named")
            return nil
        }
        if program.contains("/") {
            var path = program
            if path.hasPrefix("~/"), let home = reader.interpolator.environment["HOME"] { path = home + path.dropFirst(1) }
            if !path.hasPrefix("/") { path = (reader.interpolator.folder ?? FileManager.default.currentDirectoryPath) + "/" + path }
            path = URL(fileURLWithPath: path).standardizedFileURL.path
            var info = stat()
            if stat(path, &info) != 0 {
                reader.problem(at: node, "\(what): \(program): \(String(cString: strerror(errno)))")
                return nil
            }
            if (info.st_mode & S_IFMT) == S_IFDIR || access(path, X_OK) != 0 {
                reader.problem(at: node, "\(what): \(program) is not an executable file (chmod +x it?)")
                return nil
            }
            argv[0] = path
        } else if executableOnPath(program, path: reader.interpolator.environment["PATH"]) == nil {
            reader.problem(at: node, "\(what): \(program) is not on PATH (write ./\(program) for a file next to the config)")
            return nil
        }
        return argv
    }

    /// The full path of `name` in a PATH list, if an executable file is there.
    public static func executableOnPath(_ name: String, path: String?) -> String? {
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// `webhook: URL` or `webhook: { url, headers, body }`.
    static func readWebhook(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> WebhookSpec? {
        if case .scalar = node {
            return webhookURL(node, what, reader: &reader).map { WebhookSpec(url: $0) }
        }
        guard let entries = reader.mapping(node, what) else { return nil }
        reader.checkKeys(entries, allowed: webhookKeys, in: what)
        let problemsBefore = reader.problems.count
        guard let urlEntry = entries.first(where: { $0.key == "url" }) else {
            reader.problem(at: node, "\(what) needs a url")
            return nil
        }
        let url = webhookURL(urlEntry.value, "\(what).url", reader: &reader)
        let headers = entries.first { $0.key == "headers" }.map { readHeaders($0.value, "\(what).headers", reader: &reader) } ?? []
        var body: JSON?
        if let entry = entries.first(where: { $0.key == "body" }) {
            body = reader.json(entry.value, "\(what).body")
            if let body { checkPlaceholders(in: body, at: entry.value, "\(what).body", reader: &reader) }
        }
        guard let url, reader.problems.count == problemsBefore else { return nil }
        return WebhookSpec(url: url, headers: headers, body: body)
    }

    private static func webhookURL(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> ConfigString? {
        guard let url = reader.interpolated(node, what) else { return nil }
        guard isHTTPURL(url.value), WrittenURL.problem(in: url.value) == nil else {
            reader.problem(at: node, "\(what) must be an http(s) URL, not \"\(url.display)\"")
            return nil
        }
        return url
    }

    private static func checkPlaceholders(in body: JSON, at node: YAMLNode, _ what: String, reader: inout NodeReader) {
        switch body {
        case .string(let text):
            for name in WebhookSpec.unknownPlaceholders(in: text) {
                reader.problem(
                    at: node,
                    "\(what): unknown placeholder {{\(name)}} (one of \(WebhookSpec.placeholders.joined(separator: ", ")))"
                        + Suggestions.hint(for: name, in: WebhookSpec.placeholders))
            }
        case .array(let items): for item in items { checkPlaceholders(in: item, at: node, what, reader: &reader) }
        case .object(let object): for member in object.members { checkPlaceholders(in: member.value, at: node, what, reader: &reader) }
        default: break
        }
    }
}
