import RealModule
import TouchCore

public enum Edge: String, CaseIterable, Codable, Sendable {
    case left, right, top, bottom
}
