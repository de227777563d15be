import CGtk
import ConfigEdit
import Gestures
import TouchCore

/// A gesture drawn small: a dot for each finger and, for a gesture that goes one way,
/// an arrow that way (toward its edge, for an edge swipe). Seen, and said to a screen
/// reader as the sketch's summary.
enum GesturePicture {
    /// The sketch a picture draws, held by its widget and let go of with it.
    private final class Drawn {
        let sketch: GestureSketch
        init(_ sketch: GestureSketch) { self.sketch = sketch }
    }

    static func make(_ sketch: GestureSketch, side: Int32 = 56) -> Widget {
        let area = gtk_drawing_area_new()!.named("picture: \(sketch.summary)")
        gtk_drawing_area_set_content_width(area.as(GtkDrawingArea.self), side)
        gtk_drawing_area_set_content_height(area.as(GtkDrawingArea.self), side)
        gtk_drawing_area_set_draw_func(area.as(GtkDrawingArea.self), draw, Unmanaged.passRetained(Drawn(sketch)).toOpaque(), release)
        return area
    }

    private static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
        guard let data else { return }
        Unmanaged<Drawn>.fromOpaque(data).release()
    }

    private static let draw: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cairo, width, height, data in
        guard let cairo, let data else { return }
        let sketch = Unmanaged<Drawn>.fromOpaque(data).takeUnretainedValue().sketch
        let w = Double(width), h = Double(height)
        let way = sketch.direction.flatMap { Direction(rawValue: $0)?.unit ?? edgeUnit($0) }
        let fingers = max(1, min(sketch.fingers, 5))
        // The fingers side by side across the way they go, at the middle.
        let across = Point(x: -(way?.y ?? 0), y: way?.x ?? 1)
        let spacing = min(w, h) / 7
        cairo_set_source_rgb(cairo, 0.16, 0.38, 0.72)
        for finger in 0..<fingers {
            let offset = (Double(finger) - Double(fingers - 1) / 2) * spacing
            cairo_arc(cairo, w / 2 + across.x * offset, h / 2 + across.y * offset, spacing / 3, 0, 2 * Double.pi)
            cairo_fill(cairo)
        }
        guard let way else { return }
        let length = min(w, h) * 0.38
        let tip = Point(x: w / 2 + way.x * length, y: h / 2 + way.y * length)
        cairo_set_line_width(cairo, 2.5)
        cairo_move_to(cairo, w / 2, h / 2)
        cairo_line_to(cairo, tip.x, tip.y)
        for side in [-1.0, 1.0] {
            cairo_move_to(cairo, tip.x, tip.y)
            cairo_line_to(cairo, tip.x - way.x * 7 + way.y * 5 * side, tip.y - way.y * 7 - way.x * 5 * side)
        }
        cairo_stroke(cairo)
    }

    /// An edge swipe goes away from its edge.
    private static func edgeUnit(_ edge: String) -> Point? {
        switch edge {
        case "top": Point(x: 0, y: 1)
        case "bottom": Point(x: 0, y: -1)
        case "left": Point(x: 1, y: 0)
        case "right": Point(x: -1, y: 0)
        default: nil
        }
    }
}
