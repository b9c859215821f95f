import Foundation
import ResourceEngine

extension Response {
    /// The entity of a success, for assertions.
    public var entity: Entity? {
        if case .success(let entity) = self { entity } else { nil }
    }

    /// The error of a failure, for assertions.
    public var error: RequestError? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension Entity {
    /// Raw content as UTF-8 text (content is still `Data` while no pipeline is configured).
    public var bodyText: String? {
        (content as? Data).flatMap { String(data: $0, encoding: .utf8) } ?? (content as? String)
    }
}
