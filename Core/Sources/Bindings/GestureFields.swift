import Gestures

/// A gesture event's values by the names the outputs use (replay's JSON lines, command
/// environments, D-Bus dictionaries), so every output names them alike.
public enum GestureFields {
    /// name, type and phase, always first and in this order, then the tool (finger or
    /// pen), then direction when there is one.
    public static func strings(_ e: GestureEvent) -> [(String, String)] {
        var fields = [("gesture", e.name), ("type", e.type.rawValue), ("phase", e.phase.rawValue), ("tool", e.tool.rawValue)]
        if let direction = e.direction { fields.append(("direction", direction.rawValue)) }
        return fields
    }

    /// x, y (normalized centroid), and scale, rotation, velocity where they apply, with
    /// the decimals they are printed with.
    public static func numbers(_ e: GestureEvent) -> [(String, Double, Int)] {
        var fields = [("x", e.location.x, 4), ("y", e.location.y, 4)]
        if let scale = e.scale { fields.append(("scale", scale, 4)) }
        if let rotation = e.rotation { fields.append(("rotation", rotation, 4)) }
        if let velocity = e.velocity { fields.append(("velocity", velocity, 2)) }
        return fields
    }
}
