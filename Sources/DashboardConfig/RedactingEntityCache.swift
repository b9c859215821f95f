import Foundation
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

    public func writeEntity(_ entity: Entity, forKey key: String) {
        var safe = entity
        safe.content = redactor.redact(content: entity.content)
        wrapped.writeEntity(safe, forKey: key)
    }

    public func updateTimestamp(_ timestamp: TimeInterval, forKey key: String) { wrapped.updateTimestamp(timestamp, forKey: key) }

    public func removeEntity(forKey key: String) { wrapped.removeEntity(forKey: key) }
}
