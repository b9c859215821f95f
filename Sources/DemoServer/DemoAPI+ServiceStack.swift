import NIOHTTP1

extension DemoAPI {
    /// The billing API's own metadata, as a ServiceStack service serves it at
    /// `/metadata/app.json` (the shape its Admin UI reads): what `hammock init --from servicestack`
    /// starts from. Two operations a GET can call, one that needs an id, one that is a POST.
    static let serviceStackMetadata = #"""
        {"app":{"baseUrl":"http://127.0.0.1:8731/billing/api/","serviceName":"Billing","serviceStackVersion":"8.4"},
         "api":{
           "operations":[
             {"request":{"name":"GetDueInvoices","namespace":"Billing.ServiceModel","properties":[{"name":"Days","type":"Nullable`1","genericArgs":["Int32"]}]},
              "returnType":{"name":"List`1","genericArgs":["Invoice"]},
              "routes":[{"path":"/invoices/due","verbs":"GET"}],"method":"GET","actions":["GET"],"requiresApiKey":true,"tags":["invoices"]},
             {"request":{"name":"GetInvoice","namespace":"Billing.ServiceModel","properties":[{"name":"Id","type":"String","isRequired":true}]},
              "returnType":{"name":"Invoice"},
              "routes":[{"path":"/invoices/{Id}","verbs":"GET"}],"method":"GET","requiresApiKey":true,"tags":["invoices"]},
             {"request":{"name":"CreateInvoice","namespace":"Billing.ServiceModel","properties":[{"name":"Customer","type":"String","isRequired":true}]},
              "routes":[{"path":"/invoices","verbs":"POST"}],"method":"POST","requiresApiKey":true},
             {"request":{"name":"GetLedgerBalance","namespace":"Billing.ServiceModel","properties":[]},
              "response":{"name":"LedgerBalanceResponse","namespace":"Billing.ServiceModel","properties":[
                {"name":"Balance","type":"Decimal","isValueType":true},{"name":"Period","type":"String"},
                {"name":"ResponseStatus","type":"ResponseStatus","namespace":"ServiceStack"}]},
              "routes":[{"path":"/legacy/ledger/balance"}],"method":"GET","tags":["ledger"]}],
           "types":[
             {"name":"Invoice","namespace":"Billing.ServiceModel","properties":[
               {"name":"InvoiceId","type":"String"},{"name":"Customer","type":"String"},{"name":"Amount","type":"Decimal","isValueType":true},
               {"name":"DueDate","type":"DateTime","isValueType":true},{"name":"Lines","type":"List`1","genericArgs":["InvoiceLine"]}]}]}}
        """#

    static func serviceStackMetadataRoute(_ routes: inout DemoRoutes) {
        routes.add("GET /billing/api/metadata/app.json") { _ in
            json(.ok, serviceStackMetadata)
        }
    }
}
