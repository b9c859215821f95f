import FoundationEssentials
import ResourceEngine

/// An entity cache that redacts what it stores: a body that echoes a token (httpbin's
/// `/headers`, a debug endpoint) reaches the disk as `•••`, never in clear.
public struct RedactingEntityCache: EntityCache {
    public let wrapped: any EntityCache
    public let redactor: Redactor

    public init(_ wrapped: any EntityCache, redactor: Redactor) {
        self.wrapped = wrapped
        self.redactor = redactor
    }

    public func readEntity(forKey key: String) -> Entity? { wrapped.readEntity(forKey: key) }

    /// Redacted when it is written: a cache that writes behind redacts only what reaches its disk.
    public func writeEntity(_ entity: Entity, forKey key: String) {
        writeEntity(entity, forKey: key) { $0 }
    }

    public func writeEntity(_ entity: Entity, forKey key: String, preparedBy prepare: @escaping @Sendable (Entity) -> Entity) {
        wrapped.writeEntity(entity, forKey: key) { [redactor] entity in
            var safe = prepare(entity)
            safe.content = redactor.redact(content: safe.content)
            return safe
        }
    }

    public func updateTimestamp(_ timestamp: TimeInterval, forKey key: String) { wrapped.updateTimestamp(timestamp, forKey: key) }

    public func removeEntity(forKey key: String) { wrapped.removeEntity(forKey: key) }
}
