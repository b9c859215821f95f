@testable import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import Monitor
import Redaction
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// A pane makes what it shows of an answer once: an answer whose content is the very value of
/// the last one (the pipeline hands an unchanged body the content it parsed before) keeps it,
/// unless a secret was learnt since; a changed answer is shown as it is.
@MainActor
@Suite struct PaneContentReuseTests {
    private let config = """
        service:
          baseURL: https://api.test/
        panes:
          - title: Session
            resource: /session
            show: fields
        """

    @Test func anUnchangedAnswerKeepsWhatThePaneMadeOfIt() async throws {
        let h = try DashboardHarness(config, columns: 60, rows: 6)
        h.stub("session", .json(#"{"state":"UP","build":7}"#))
        h.app.start()
        try await h.settle()
        let pane = h.app.panes[0]
        let first = try #require(h.app.content(of: pane))
        try await h.press(.character("r"))
        #expect(h.network.receivedRequests.count == 2)
        #expect(h.app.content(of: pane) === first, "the same answer again: nothing to make anew")

        h.stub("session", .json(#"{"state":"DOWN","build":7}"#))
        try await h.press(.character("r"))
        #expect(h.app.content(of: pane) !== first)
        #expect(h.screen.contains { $0.contains("state  DOWN") })
    }

    /// A token the dashboard learns (a login's answer, say) is masked in what every pane shows
    /// from then on, also in an answer that did not change.
    @Test func aSecretLearntSinceIsMaskedInAnUnchangedAnswer() async throws {
        let h = try DashboardHarness(config, columns: 60, rows: 6)
        h.stub("session", .json(#"{"state":"UP","token":"tok-98765"}"#))
        h.app.start()
        try await h.settle()
        #expect(h.screen.contains { $0.contains("token  tok-98765") })
        let live = try #require(h.app.panes[0].probe.redactor.live)
        live.add("tok-98765")
        try await h.press(.character("r"))
        #expect(h.network.receivedRequests.count == 2)
        #expect(h.screen.contains { $0.contains("token  •••") })
        #expect(!h.screen.contains { $0.contains("tok-98765") })
    }
}
