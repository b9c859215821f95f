import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// A config reload replaces the service: the old one, its resources (with their last bodies) and a
/// login session's cycle through its configuration must all go, or every edit of the file leaks.
@MainActor
@Suite struct ReloadLeakTests {
    @Test func aReloadLetsTheOldServiceAndPanesGo() async throws {
        let yaml = """
            service: { baseURL: "https://api.test/" }
            alerts: { remind: 1m, bell: true }
            panes:
              - { title: A, resource: /a }
              - { title: B, resource: /b }
            """
        let h = try DashboardHarness(yaml)
        h.stub("a", .json("{}"))
        h.stub("b", AlertTests.status(500))
        h.app.start()
        try await h.settle()
        weak let oldService = h.app.services.main
        weak let oldPane = h.app.panes.first
        weak let oldResource = h.app.panes.first?.probe.resource
        let spec = try ConfigLoader.parse(yaml.replacingOccurrences(of: "title: B", with: "title: C"), file: "hammock.yaml", environment: [:])
        h.app.send(.configReloaded(.reloaded(spec)))
        try await h.settle()
        try await h.advance(1)
        #expect(oldPane == nil, "the old pane is gone")
        #expect(oldResource == nil, "the old resource is gone")
        #expect(oldService == nil, "the old service is gone")
        h.app.stop()
    }
}

extension ReloadLeakTests {
    @Test func aReloadLetsALoginSessionsServiceGoToo() async throws {
        let yaml = """
            services:
              shop:
                baseURL: https://shop.test/
                auth:
                  login: { resource: /auth/token, body: { json: { user: demo, password: pw } }, token: access_token }
            panes:
              - { title: Orders, service: shop, resource: /orders }
            """
        let h = try DashboardHarness(yaml)
        h.network.stub(.post, "https://shop.test/auth/token", .json(#"{"access_token":"t-1"}"#))
        h.network.stub(.get, "https://shop.test/orders", .json("[]"))
        h.app.start()
        try await h.settle()
        try await h.settle()
        #expect(h.app.panes[0].probe.health == .ok)
        weak let oldService = h.app.services.main
        weak let oldResource = h.app.panes.first?.probe.resource
        let spec = try ConfigLoader.parse(yaml.replacingOccurrences(of: "title: Orders", with: "title: Orders2"), file: "hammock.yaml", environment: [:])
        h.app.send(.configReloaded(.reloaded(spec)))
        try await h.settle()
        try await h.advance(1)
        #expect(oldResource == nil, "the old resource is gone")
        #expect(oldService == nil, "the old service is gone, its login session with it")
        h.app.stop()
    }
}
