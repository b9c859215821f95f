import FoundationEssentials

/// Keeps entities across runs so a restarted app shows the last data at once.
///
/// Siesta's `EntityCache` idea, built in. Set `Configuration.cache`; a resource then fills itself
/// from the cache before its first load (`newData(cache)`), writes each new successful response,
/// refreshes the stored timestamp on a 304, and forgets its entry on a local override. Errors are
/// never cached. Implementations must be thread-safe.
public protocol EntityCache: Sendable {
    /// The stored entity for `key`, or nil (missing, corrupt, or from another format).
    func readEntity(forKey key: String) -> Entity?
    /// Stores `entity`; may happen later, off the caller's thread.
    func writeEntity(_ entity: Entity, forKey key: String)
    /// Marks the stored entity as confirmed fresh at `timestamp` (after a 304).
    func updateTimestamp(_ timestamp: TimeInterval, forKey key: String)
    /// Forgets the stored entity.
    func removeEntity(forKey key: String)
    /// Stores what `prepare` makes of `entity` (a redacted copy). A cache that writes behind may
    /// call `prepare` later, on another thread, and only when it writes; comparisons with what
    /// it holds see `entity` itself.
    func writeEntity(_ entity: Entity, forKey key: String, preparedBy prepare: @escaping @Sendable (Entity) -> Entity)
}

extension EntityCache {
    /// Prepares at once and stores the result.
    public func writeEntity(_ entity: Entity, forKey key: String, preparedBy prepare: @escaping @Sendable (Entity) -> Entity) {
        writeEntity(prepare(entity), forKey: key)
    }
}
