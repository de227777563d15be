import TouchCore

/// What a gesture event reports: `recognized` for discrete gestures, the others for
/// continuous ones.
public enum GesturePhase: String, Codable, Sendable {
    case recognized, began, changed, ended, cancelled
}
