import FoundationEssentials
import NIOHTTP1
import ResourceEngine
import TextBasics

/// Endpoints the samples in `config/` watch, each shaped like the real API it stands for: a
/// Spring Boot actuator, a paginated admin API behind a bearer token, a search service with a
/// POST query, a ServiceStack API with its `responseStatus` errors, and a shop behind a login
/// whose tokens expire after two minutes, with an NDJSON event feed.
extension DemoAPI {
    static func sampleRoutes(_ routes: inout DemoRoutes, state: DemoState) {
        routes.add("GET /actuator/health") { _ in
            let free = await state.diskFree()
            return json(.ok, #"{"status":"UP","components":{"db":{"status":"UP","details":{"database":"PostgreSQL"}},"diskSpace":{"status":"UP","details":{"total":499963174912,"free":\#(free),"threshold":10485760}},"ping":{"status":"UP"}}}"#)
        }
        routes.add("GET /actuator/info") { _ in
            json(.ok, #"{"build":{"artifact":"inventory","version":"3.2.1","time":"2026-11-02T09:14:00Z"},"git":{"branch":"main","commit":{"id":"4f2c9e1","time":"2026-11-01T17:40:12Z"}}}"#)
        }
        routes.add("GET /v2/users") { request in
            guard request.header("Authorization") == "Bearer \(token)" else {
                return json(.unauthorized, #"{"message":"Missing or invalid bearer token"}"#, headers: [("WWW-Authenticate", "Bearer")])
            }
            let page = max(1, Int(request.query["page"] ?? "") ?? 1)
            let perPage = min(100, max(1, Int(request.query["per_page"] ?? "") ?? 20))
            return json(.ok, users(page: page, perPage: perPage))
        }
        routes.add("GET /v2/users/count") { request in
            guard request.header("Authorization") == "Bearer \(token)" else {
                return json(.unauthorized, #"{"message":"Missing or invalid bearer token"}"#)
            }
            return json(.ok, #"{"count":\#(userCount)}"#)
        }
        routes.add("POST /search/_search") { request in
            let body = request.bodyText
            let count = await state.searchCount(for: body)
            return json(.ok, #"{"took":12,"timed_out":false,"hits":{"total":\#(count),"hits":[]}}"#)
        }
        routes.add("GET /search/slowlog") { _ in
            json(.ok, #"[{"took":"1.8s","query":"status:failed AND region:eu"},{"took":"1.1s","query":"customer:*ada*"},{"took":"0.9s","query":"total:>500"}]"#)
        }
        serviceStackMetadataRoute(&routes)
        routes.add("GET /billing/api/invoices/due") { request in
            // An API key as a header of its own, or as ServiceStack takes one: a bearer token.
            let bearer = request.header("Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            guard let key = request.header("X-Api-Key") ?? bearer, !key.isEmpty else {
                return json(.unauthorized, #"{"responseStatus":{"errorCode":"Unauthorized","message":"An API key is required","errors":[]}}"#)
            }
            return json(.ok, #"[{"invoiceId":"INV-2041","customer":"Grace Hopper","amount":"1200.00","dueDate":"2026-11-30"},{"invoiceId":"INV-2044","customer":"Alan Turing","amount":"86.50","dueDate":"2026-12-02"}]"#)
        }
        routes.add("POST /shop/auth/token") { request in
            let body = try? JSONParser.parse(request.bodyText)
            guard body?["user"]?.stringValue == "demo", body?["password"]?.stringValue == shopPassword else {
                return json(.unauthorized, #"{"error":"invalid credentials"}"#)
            }
            let token = await state.issueShopToken(lifetime: shopTokenLifetime)
            return json(.ok, #"{"access_token":"\#(token)","token_type":"Bearer","expires_in":\#(Int(shopTokenLifetime))}"#)
        }
        routes.add("GET /shop/orders/open") { request in
            let authorization = request.header("Authorization") ?? ""
            guard authorization.hasPrefix("Bearer "), await state.shopTokenIsValid(String(authorization.dropFirst(7))) else {
                return json(.unauthorized, #"{"error":"token expired or missing"}"#, headers: [("WWW-Authenticate", "Bearer")])
            }
            return json(.ok, #"{"orders":[{"id":"SO-1001","customer":"Ada Lovelace","total":129.9},{"id":"SO-1002","customer":"Ken Thompson","total":42}]}"#)
        }
        routes.add("GET /shop/events") { _ in
            let lines = [
                #"{"time":"2026-11-23T09:00:00Z","level":"info","message":"order SO-1001 paid"}"#,
                #"{"time":"2026-11-23T09:01:30Z","level":"warn","message":"payment retry for SO-1002"}"#,
                #"{"time":"2026-11-23T09:02:10Z","level":"info","message":"order SO-1002 paid"}"#,
            ]
            return DemoResponse(status: .ok, headers: [("Content-Type", "application/x-ndjson")], body: Array((lines.joined(separator: "\n") + "\n").utf8))
        }
        routes.add("GET /billing/api/legacy/ledger/balance") { _ in
            json(.badRequest, #"{"responseStatus":{"errorCode":"ValidationException","message":"Validation failed","errors":[{"errorCode":"GreaterThan","fieldName":"Period","message":"must be a closed period"}]}}"#)
        }
    }

    static let userCount = 4212
    /// The shop's login: user `demo`, this password; its tokens last this long.
    static let shopPassword = "demo-pass"
    static let shopTokenLifetime: TimeInterval = 120

    /// One page of users, newest first, in a `{"data": […], "meta": {…}}` envelope.
    static func users(page: Int, perPage: Int) -> String {
        let first = (page - 1) * perPage
        let names = ["ada", "alan", "grace", "edsger", "barbara", "donald", "margaret", "ken"]
        let rows = (first..<min(userCount, first + perPage)).map { index -> String in
            let id = userCount - index
            let day = 1 + index % 28
            return #"{"id":\#(id),"email":"\#(names[index % names.count])\#(id)@example.org","createdAt":"2026-10-\#(String.zeroPadded(day, digits: 2))T08:00:00Z"}"#
        }
        return #"{"data":[\#(rows.joined(separator: ","))],"meta":{"page":\#(page),"per_page":\#(perPage),"total":\#(userCount)}}"#
    }
}
