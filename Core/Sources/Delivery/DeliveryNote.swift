import Gestures
import TouchCore

/// A decision about what the twin gets, or a change of episode, with its reason: printed
/// by `replay --explain` beside the recognizers' transitions, and in the verbose log.
public struct DeliveryNote: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Frames are held back from here on.
        case held
        /// Held frames went to the twin.
        case delivered
        /// Held frames were dropped: a gesture took their touches.
        case dropped
        /// Touches the twin had were cancelled.
        case cancelled
        /// The episode changed (count 0).
        case changed(from: DeliveryEpisode, to: DeliveryEpisode)
    }

    public var time: Timestamp
    public var kind: Kind
    /// Frames (held, delivered, dropped) or touches (cancelled).
    public var count: Int
    public var reason: String

    /// "held 1 frame", "cancelled 3 touches", "deciding → withheld".
    public var summary: String {
        switch kind {
        case .held, .delivered, .dropped: "\(kind) \(count) frame\(count == 1 ? "" : "s")"
        case .cancelled: "\(kind) \(count) touch\(count == 1 ? "" : "es")"
        case .changed(let from, let to): "\(from.rawValue) → \(to.rawValue)"
        }
    }
}

extension DeliveryNote.Kind: CustomStringConvertible {
    public var description: String {
        switch self {
        case .held: "held"
        case .delivered: "delivered"
        case .dropped: "dropped"
        case .cancelled: "cancelled"
        case .changed: "changed"
        }
    }
}
