/// The control interface's properties (org.gestured.Gestured1 on the bus), by name:
/// what the daemon announces with PropertiesChanged when they change.
public enum ControlProperty: String, CaseIterable, Sendable {
    case mode = "Mode", modes = "Modes", paused = "Paused", locked = "Locked", gestures = "Gestures", devices = "Devices"
    case rotation = "Rotation", app = "App", session = "Session", touchLocked = "TouchLocked"
    case idle = "Idle", lastTouch = "LastTouch"
}
