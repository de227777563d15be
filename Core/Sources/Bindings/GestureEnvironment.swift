import Gestures
import TouchCore

/// The gesture as a command sees it: environment variables, never text in the command.
public enum GestureEnvironment {
    /// `GESTURE_NAME=…` and the rest: every field of `GestureFields`, upper-cased, and the device.
    public static func assignments(_ e: GestureEvent, device: String) -> [String] {
        var v = GestureFields.strings(e).map { "GESTURE_\(variable($0.0))=\($0.1)" }
        v.append("GESTURE_FINGERS=\(e.fingers)")
        v += GestureFields.numbers(e).map { "GESTURE_\(variable($0.0))=\(fixed($0.1, decimals: 4))" }
        v.append("GESTURE_DEVICE=\(device)")
        return v
    }

    /// `gesture` is the event's name: `GESTURE_NAME`.
    private static func variable(_ field: String) -> String { field == "gesture" ? "NAME" : field.uppercased() }
}
