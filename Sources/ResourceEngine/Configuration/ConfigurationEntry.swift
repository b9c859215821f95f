import FoundationEssentials

/// One `Service.configure` block: which URLs and methods it applies to, and what it does.
@MainActor
struct ConfigurationEntry {
    let description: String
    let methods: Set<RequestMethod>
    let matches: @Sendable (URL) -> Bool
    let configurer: @MainActor (inout Configuration) -> Void
}
