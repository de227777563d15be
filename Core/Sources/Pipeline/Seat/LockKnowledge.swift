/// What the seat knows of the lock from logind. Never heard: the session counts as
/// unlocked (a machine without logind, or with it missing from the start, works).
/// Heard: as logind last said. Silent since it was heard (logind away, restarting, not
/// answering, answering nonsense, the system bus gone): it fails closed, what was heard
/// stays until logind speaks again; silence never unlocks.
public enum LockKnowledge: Equatable, Sendable {
    /// `said`: the silence that leaves it unlocked has been said.
    case neverHeard(said: Bool)
    case heard
    case silent

    /// logind said the lock.
    mutating func heard() { self = .heard }

    /// logind says nothing: whether to say so (once a silence), and whether it was ever heard.
    mutating func silence() -> (say: Bool, everHeard: Bool) {
        switch self {
        case .neverHeard(let said):
            self = .neverHeard(said: true)
            return (!said, false)
        case .heard:
            self = .silent
            return (true, true)
        case .silent:
            return (false, true)
        }
    }
}
