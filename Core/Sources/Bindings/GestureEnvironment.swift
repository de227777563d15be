import Gestures
import TouchCore

/// The gesture as a command sees it: environment variables, never text in the command.
public enum GestureEnvironment {
    /// `GESTURE_NAME=…` and the rest: every field of `GestureFields`, upper-cased, the
    /// device, and for a step crossed `GESTURE_STEP` and `GESTURE_STEPS`.
    public static func assignments(_ e: GestureEvent, device: String, step: StepCount? = nil) -> [String] {
        var v = GestureFields.strings(e).map { "GESTURE_\(variable($0.0))=\($0.1)" }
        v.append("GESTURE_FINGERS=\(e.fingers)")
        v += GestureFields.numbers(e).map { "GESTURE_\(variable($0.0))=\(fixed($0.1, decimals: 4))" }
        v.append("GESTURE_DEVICE=\(device)")
        if let step { v += ["GESTURE_STEP=\(step.delta)", "GESTURE_STEPS=\(step.net)"] }
        return v
    }

    /// The event, device and step `assignments` made (its time is not among them: 0);
    /// nil when they are not such assignments. What a session agent is told (an Act)
    /// for a signal it emits on its session bus.
    public static func event(from assignments: [String]) -> (event: GestureEvent, device: String, step: StepCount?)? {
        var values: [String: String] = [:]
        for assignment in assignments {
            guard assignment.hasPrefix("GESTURE_"), let equals = assignment.firstIndex(of: "=") else { return nil }
            values[String(assignment[assignment.index(assignment.startIndex, offsetBy: 8)..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        func number(_ key: String) -> Double? { values[key].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } }
        guard let name = values["NAME"], let type = values["TYPE"].flatMap(GestureType.init(rawValue:)),
              let phase = values["PHASE"].flatMap(GesturePhase.init(rawValue:)), let fingers = values["FINGERS"].flatMap(Int.init),
              let x = number("X"), let y = number("Y"), let device = values["DEVICE"] else { return nil }
        var event = GestureEvent(name: name, type: type, phase: phase, time: Timestamp(microseconds: 0), fingers: fingers,
                                 location: Point(x: x, y: y), direction: values["DIRECTION"].flatMap(Direction.init(rawValue:)),
                                 scale: number("SCALE"), rotation: number("ROTATION"), velocity: number("VELOCITY"))
        if let tool = values["TOOL"].flatMap(ContactTool.init(rawValue:)) { event.tool = tool }
        let step = values["STEP"].flatMap(Int.init).flatMap { delta in values["STEPS"].flatMap(Int.init).map { StepCount(delta: delta, net: $0) } }
        return (event, device, step)
    }

    /// `gesture` is the event's name: `GESTURE_NAME`.
    private static func variable(_ field: String) -> String { field == "gesture" ? "NAME" : field.uppercased() }
}
