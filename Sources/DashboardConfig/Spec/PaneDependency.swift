/// One pane another waits on (`dependsOn: [Login]`): while it is in trouble, the dependent's own
/// failure is blocked by it, not an alert of its own.
public struct PaneDependency: Sendable, Equatable {
    /// The title of the pane depended on.
    public let title: String
    /// Where it is written, for messages.
    public let line: Int
    public let column: Int

    public init(title: String, line: Int, column: Int) {
        self.title = title
        self.line = line
        self.column = column
    }
}

/// Which dependencies Hammock sees for itself (`implicitDependencies:`): the panes of a service
/// whose login fails are blocked by the login; the panes of an origin that refuses connections
/// by the first of them to fail.
public struct ImplicitDependencies: Sendable, Equatable {
    public var login = true
    public var origin = true

    public init(login: Bool = true, origin: Bool = true) {
        self.login = login
        self.origin = origin
    }
}
