import Config
import Gestures
import TouchCore

/// Follows touch frames and gives the first finger's path, in millimetres as the stroke
/// recognizers see it, when every finger of the sequence has lifted.
public struct StrokeCollector {
    private var path: [Point] = []
    private var finger: Int?

    public init() {}

    public mutating func add(_ frame: TouchFrame, geometry: DeviceGeometry) -> [Point]? {
        for touch in frame.touches {
            if finger == nil, touch.phase == .began { finger = touch.id }
            guard touch.id == finger else { continue }
            let point = geometry.millimetres(touch.location)
            if path.last != point { path.append(point) }
        }
        guard finger != nil, !frame.touches.contains(where: { $0.phase.isDown }) else { return nil }
        defer { path = []; finger = nil }
        return path
    }
}
