import FoundationEssentials
import ResourceEngine

extension CacheDirectory.Owner {
    /// Hammock's: `hammock-cache` in the cache location, holding its cache and probe histories.
    public static let hammock = CacheDirectory.Owner(
        name: "hammock-cache", markerText: "This directory belongs to Hammock (a terminal monitor for HTTP APIs): its cache and probe histories.\n")
}

extension DiskEntityCache {
    /// `$XDG_CACHE_HOME/hammock`, or `~/.cache/hammock`: where Hammock caches unless told.
    public static func hammockDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        defaultDirectory(for: "hammock", environment: environment)
    }
}
