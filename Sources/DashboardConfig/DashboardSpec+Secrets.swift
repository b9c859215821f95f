import FoundationEssentials
import Redaction
import TextBasics

extension Redactor {
    /// The redactor for a config's secrets, those it learns while running included, and those
    /// of the config it replaced (`retiredSecrets`: a credential just replaced stays masked until
    /// the next reload; older ones do not pile up).
    public init(_ spec: DashboardSpec) {
        self.init(secrets: spec.secrets, retired: spec.retiredSecrets, live: spec.liveSecrets)
    }
}

extension DashboardSpec {
    /// Every secret value in the config (see `Redactor`).
    public var secrets: [String] {
        var found = Set(bodySecrets)
        var urls: [ConfigString] = []
        var headers = allServices.flatMap(\.allHeaders)
        for service in allServices {
            if case .session(let login) = service.auth {
                headers += login.headers
                if let base = service.baseURL { urls.append(base) }
            }
        }
        for block in configure { headers += block.headers }
        for pane in panes { headers += pane.headers }
        // A webhook's URL often is its credential (a chat hook's path): all of it that came from
        // the environment is secret, host included.
        for webhook in webhooks {
            headers += webhook.headers
            found.formUnion(webhook.url.environmentValues)
            urls.append(webhook.url)
        }
        for header in headers {
            found.formUnion(header.value.environmentValues)
            if HeaderSpec.looksSensitive(header.name) { found.insert(header.value.value) }
        }
        urls += allServices.compactMap(\.baseURL)
        // Alertmanager behind a proxy takes a password in its URL.
        if let alertmanager { urls.append(alertmanager.url) }
        urls += connectivity
        for pane in panes {
            urls.append(pane.resource)
            for param in pane.params {
                found.formUnion(param.value.environmentValues)
            }
        }
        for url in urls { found.formUnion(DashboardSpec.secrets(in: url)) }
        return found.sorted()
    }

    /// The webhooks the file configures: the top-level one and each pane's.
    public var webhooks: [WebhookSpec] {
        ([alerts.webhook] + panes.map(\.alerts.webhook)).compactMap { $0 }
    }

    /// The secret parts of a URL: a password written into it, and what the environment put
    /// there except the scheme, host and port (a whole URL from the environment gives its
    /// password and query values).
    static func secrets(in url: ConfigString) -> [String] {
        var found: [String] = []
        let parsed = URL(string: WrittenURL.encodingWhatCannotTravel(url.value))
        if let password = parsed?.password(percentEncoded: false), !password.isEmpty {
            found.append(password)
            // libcurl sends user-info as Basic authorization: an echoing server shows it encoded.
            let user = parsed?.user(percentEncoded: false) ?? ""
            found.append(Data("\(user):\(password)".utf8).base64EncodedString())
        }
        let host = parsed?.host?.lowercased()
        let port = parsed?.port.map(String.init)
        for value in url.environmentValues {
            if value.lowercased() == host || value == port || value.lowercased() == parsed?.scheme?.lowercased() { continue }
            if WrittenURL.isAbsolute(value), let inner = URL(string: WrittenURL.encodingWhatCannotTravel(value)) {
                // A base URL from the environment: its path names the API, its password and
                // query values may be credentials.
                if let password = inner.password(percentEncoded: false), !password.isEmpty { found.append(password) }
                let query = URLComponents(url: inner, resolvingAgainstBaseURL: false)?.queryItems ?? []
                found += query.compactMap(\.value)
                continue
            }
            found.append(value)
        }
        return found
    }
}
