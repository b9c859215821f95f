import DashboardConfig
import FoundationEssentials
import ResourceEngine

/// The engine services a config file describes: one `Service` for the `service:` section and one
/// for each entry of `services:`, as each API is a `Service` of its own in Siesta.
///
/// A pane's requests go through its own service only, so its base URL, headers, auth, cookies,
/// TLS and timeouts decide everything it sends, and nothing of another service reaches it
/// however the base URLs overlap. Two panes share a resource (one state, one request) only when
/// they belong to the same service and send the same request.
@MainActor
public final class ServiceGroup {
    /// The `service:` section's: panes that name no service, and webhooks.
    public let main: Service
    /// Each named service's, in file order.
    public let named: [(name: String, service: Service)]
    /// What the services have to say while running (a token file that cannot be used, a cookie
    /// dropped): the monitor puts it on the status line.
    public let reports: LiveReports

    public init(main: Service, named: [(name: String, service: Service)] = [], reports: LiveReports = LiveReports()) {
        self.main = main
        self.named = named
        self.reports = reports
    }

    /// The service called `name`; the `service:` section's for nil or an unknown name.
    public func service(named name: String?) -> Service {
        guard let name else { return main }
        return named.first { $0.name == name }?.service ?? main
    }

    /// Every service, the `service:` section's first.
    public var all: [Service] { [main] + named.map(\.service) }

    /// Lets go of every service's resources and configuration (see `Service.tearDown()`).
    public func tearDown() {
        for service in all { service.tearDown() }
    }
}
