import ConfigDocument

/// What the studio shows of one gesture before it is opened: its name, what draws it
/// (its type, fingers and direction or edge) and what it does, read from its table as
/// written (a gesture the checker refuses is shown too, so that it can be mended).
public struct GestureSketch: Equatable, Sendable {
    public var name: String
    public var type: String
    public var fingers: Int
    /// A swipe's, pan's or stroke's direction, or an edge swipe's edge.
    public var direction: String?
    public var does: String

    public init(_ gesture: ConfigTable) {
        name = gesture["name"]?.string ?? "(no name)"
        type = gesture["type"]?.string ?? "(no type)"
        fingers = gesture["fingers"]?.int ?? (type == "pinch" || type == "rotate" ? 2 : 1)
        direction = gesture["direction"]?.string ?? gesture["edge"]?.string
        does = Self.action(of: gesture)
    }

    /// "swipe, 3 fingers, left: keys ctrl+alt+Right".
    public var summary: String {
        let what = [type, fingers == 1 ? "1 finger" : "\(fingers) fingers", direction].compactMap { $0 }.joined(separator: ", ")
        return "\(what): \(does)"
    }

    /// The first of its actions, in the order the manual lists them.
    private static func action(of gesture: ConfigTable) -> String {
        if let keys = gesture["keys"]?.string { return "keys \(keys)" }
        if let click = gesture["click"]?.string { return "\(click) click" }
        if let command = gesture["command"]?.string { return "runs \(command)" }
        if gesture["signal"]?.bool == true { return "a D-Bus signal" }
        if let mode = gesture["mode"]?.string { return "mode \(mode)" }
        if gesture["pause_s"] != nil { return "pauses gestured" }
        if gesture["touch_lock"] != nil { return "the touch lock" }
        if let key = gesture["hold"]?.string { return "holds \(key)" }
        if let button = gesture["hold_button"]?.string { return "holds the \(button) button" }
        if gesture["scroll"]?.bool == true { return "scrolls" }
        if gesture["touchpad"]?.bool == true { return "the desktop's touchpad gesture" }
        if gesture["increase"] != nil || gesture["decrease"] != nil { return "steps" }
        return "nothing yet"
    }
}
