/// Convenience readers for content of an expected type, with sensible empty defaults.
///
/// Adopted by `Entity`, by `Resource` (reading `latestData`) and by `RequestError` (reading its
/// error body), so `resource.jsonDict["status"]` and `error.text` read naturally.
public protocol TypedContentAccessors {
    /// The entity whose content the accessors read.
    var entityForTypedContentAccessors: Entity? { get }
}

extension TypedContentAccessors {
    /// The content as `T`, or `defaultValue` if there is none or it is another type.
    public func typedContent<T>(ifNone defaultValue: @autoclosure () -> T) -> T {
        (entityForTypedContentAccessors?.content as? T) ?? defaultValue()
    }

    /// The content as `T`, or `defaultValue` (itself optional) if there is none or it is another type.
    ///
    /// Without this overload an optional default would make `T` optional, and a missing content
    /// would cast to `.some(nil)` and hide the default.
    public func typedContent<T>(ifNone defaultValue: @autoclosure () -> T?) -> T? {
        (entityForTypedContentAccessors?.content as? T) ?? defaultValue()
    }

    /// The content as `T`, or nil.
    public func typedContent<T>() -> T? {
        entityForTypedContentAccessors?.content as? T
    }

    /// The content as text, or "".
    public var text: String { typedContent(ifNone: "") }

    /// The content as JSON, or nil.
    public var json: JSON? { typedContent() }

    /// The content as a JSON object, or an empty one.
    public var jsonDict: JSONObject { json?.objectValue ?? JSONObject() }

    /// The content as a JSON array, or an empty one.
    public var jsonArray: [JSON] { json?.arrayValue ?? [] }
}

extension Entity: TypedContentAccessors {
    public var entityForTypedContentAccessors: Entity? { self }
}

extension RequestError: TypedContentAccessors {
    public var entityForTypedContentAccessors: Entity? { entity }
}

extension Resource: @MainActor TypedContentAccessors {
    public var entityForTypedContentAccessors: Entity? { latestData }
}
