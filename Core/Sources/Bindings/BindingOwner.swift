/// Whose a binding is, from the moment its configuration is put in force: the machine's
/// (the daemon's own file), or one session's (its user's file, which that session's agent
/// handed over). The seat acts for a session's binding only while that session is in
/// front of the seat, and a command or a signal of it only through its agent: the
/// service never runs a user's command, whatever the names in force when it fires.
public enum BindingOwner: Hashable, Codable, Sendable, CustomStringConvertible {
    case machine
    /// The session's id (logind's object path, live).
    case session(String)

    public var description: String {
        switch self {
        case .machine: "the machine"
        case .session(let id): "session \(id)"
        }
    }
}

/// An action, with whose binding decided it.
public struct OwnedAction: Equatable, Sendable {
    public var action: Action
    public var owner: BindingOwner

    public init(_ action: Action, of owner: BindingOwner) {
        self.action = action
        self.owner = owner
    }
}
