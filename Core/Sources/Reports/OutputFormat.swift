import Bindings
import Delivery
import Gestures
import Pipeline
import TouchCore

public enum OutputFormat: String, CaseIterable, Sendable {
    case text, jsonl
}
