import NIOHTTP1

extension DemoAPI {
    /// The demo API as it describes itself (OpenAPI 3.1), served at `/openapi.json`: what
    /// `hammock init --from` starts from.
    static let openAPIDocument = #"""
        {"openapi":"3.1.0","info":{"title":"Demo Shop API","version":"1.4.2"},
         "servers":[{"url":"/"}],
         "components":{
           "securitySchemes":{"bearer":{"type":"http","scheme":"bearer"}},
           "schemas":{
             "Health":{"type":"object","properties":{"status":{"type":"string"},"version":{"type":"string"},"uptime":{"type":"string"}}},
             "Order":{"type":"object","properties":{"id":{"type":"integer"},"customer":{"type":"string"},"total":{"type":"string"}}},
             "Message":{"type":"object","properties":{"message":{"type":"string"},"code":{"type":"string"}}}}},
         "paths":{
           "/health":{"get":{"summary":"Health","tags":["core"],"responses":{"200":{"description":"Up","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Health"}}}}}}},
           "/orders":{"get":{"summary":"Open orders","tags":["shop"],
             "parameters":[{"name":"state","in":"query","required":true,"schema":{"type":"string","example":"open"}}],
             "responses":{"200":{"description":"A page of orders","content":{"application/json":{"schema":{"type":"object",
               "properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/Order"}},"page":{"type":"integer"}}}}}},
               "304":{"description":"Not modified"}}}},
           "/orders/{id}":{"get":{"summary":"One order","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
             "responses":{"200":{"description":"The order"}}}},
           "/flaky":{"get":{"summary":"Flaky","responses":{"200":{"description":"Works two times in three"}}}},
           "/metrics":{"get":{"summary":"Metrics","tags":["ops"],"responses":{"200":{"description":"Prometheus text","content":{"text/plain":{}}}}}},
           "/secure/profile":{"get":{"summary":"Profile","security":[{"bearer":[]}],
             "responses":{"200":{"description":"The caller","content":{"application/json":{"schema":{"type":"object",
               "properties":{"name":{"type":"string"},"plan":{"type":"string"},"seats":{"type":"integer"}}}}}},
               "401":{"description":"No token","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Message"}}}}}}},
           "/search":{"post":{"summary":"Search","responses":{"200":{"description":"Counts"}}}}}}
        """#

    static func openAPIRoute(_ routes: inout DemoRoutes) {
        routes.add("GET /openapi.json") { _ in
            json(.ok, openAPIDocument)
        }
    }
}
