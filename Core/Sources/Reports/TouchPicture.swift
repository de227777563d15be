import Gestures
import Pipeline
import TouchCore

/// A picture of touch sequences as SVG, for a browser: the panel's outline at its aspect
/// ratio, each touch's trace in its own colour (start numbered, end marked, a dot every
/// 100 ms, seconds every 500 ms), and beside it the gestures that fired and the reasons of
/// the recognizers that failed. `replay --svg` draws a recording, `monitor --svg` the
/// last touch sequence.
public struct TouchPicture {
    private struct Trace {
        var number: Int
        var points: [(location: Point, time: Timestamp)] = []
        var end: TouchPhase?
    }

    public let title: String
    public let size: SizeMM
    private var traces: [Int: Trace] = [:]
    private var order: [Int] = []
    private var fired: [(time: Timestamp, text: String)] = []
    private var failed: [(time: Timestamp, text: String)] = []
    private var start: Timestamp?
    private var last: Timestamp?

    /// `size`: the panel as seen, in millimetres (`DeviceGeometry.size`).
    public init(title: String, size: SizeMM) {
        self.title = title
        self.size = size
    }

    /// Touches down at the last frame: none means a sequence is over.
    public private(set) var touchesDown = 0

    public mutating func add(_ step: Step) {
        if let frame = step.frame {
            start = start ?? frame.time
            last = frame.time
            touchesDown = 0
            for touch in frame.touches {
                if traces[touch.id] == nil {
                    traces[touch.id] = Trace(number: order.count + 1)
                    order.append(touch.id)
                }
                if touch.phase != .stationary || traces[touch.id]?.points.isEmpty == true {
                    traces[touch.id]?.points.append((touch.location, frame.time))
                }
                if touch.phase.isDown { touchesDown += 1 } else { traces[touch.id]?.end = touch.phase }
            }
        }
        for event in step.events where event.phase != .changed {
            let fingers = "\(event.fingers) finger\(event.fingers == 1 ? "" : "s")"
            fired.append((event.time, "\(event.name) (\(event.type.rawValue)) \(event.phase.rawValue), \(fingers)"))
        }
        for t in step.transitions where t.to == .failed || t.to == .cancelled {
            failed.append((t.time, "\(t.gesture) \(t.to.rawValue): \(t.reason)"))
        }
    }

    public var isEmpty: Bool { order.isEmpty }

    // MARK: Drawing

    private static let colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                  "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"]
    private static let margin = 24.0, header = 56.0, columnGap = 32.0, columnWidth = 640.0, lineHeight = 19.0
    /// Reasons are long; a line holds about this many characters of the 13 px font.
    private static let wrapAt = 86

    public func svg() -> String {
        let scale = min(760 / max(size.width, 1), 560 / max(size.height, 1))
        let panelWidth = size.width * scale, panelHeight = size.height * scale
        let left = Self.margin, top = Self.header
        let textX = left + panelWidth + Self.columnGap
        let text = legend()
        let width = textX + Self.columnWidth + Self.margin
        let height = max(top + panelHeight + 40, top + Double(text.count) * Self.lineHeight + Self.margin)
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))" font-family="DejaVu Sans, Verdana, sans-serif">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(n(left))" y="30" font-size="18" font-weight="bold">\(escape(title))</text>
            <text x="\(n(left))" y="48" font-size="13" fill="#555">\(escape(subtitle))</text>
            <rect x="\(n(left))" y="\(n(top))" width="\(n(panelWidth))" height="\(n(panelHeight))" rx="8" fill="#f4f4f4" stroke="#333" stroke-width="2"/>
            <text x="\(n(left + panelWidth / 2))" y="\(n(top + panelHeight + 22))" font-size="13" fill="#555" text-anchor="middle">panel \(fixed(size.width, decimals: 0)) × \(fixed(size.height, decimals: 0)) mm</text>

            """
        func place(_ p: Point) -> (Double, Double) { (left + p.x * panelWidth, top + p.y * panelHeight) }
        for id in order {
            guard let trace = traces[id], let first = trace.points.first else { continue }
            out += drawTrace(trace, colour: colour(trace.number), place: place, startMark: place(first.location))
        }
        for (index, line) in text.enumerated() {
            let y = top + 14 + Double(index) * Self.lineHeight
            out += "<text x=\"\(n(textX))\" y=\"\(n(y))\" font-size=\"\(line.size)\" fill=\"\(line.colour)\"\(line.bold ? " font-weight=\"bold\"" : "")>\(escape(line.text))</text>\n"
        }
        return out + "</svg>\n"
    }

    private func drawTrace(_ trace: Trace, colour: String, place: (Point) -> (Double, Double), startMark: (Double, Double)) -> String {
        let t0 = start ?? Timestamp(microseconds: 0)
        let points = trace.points.map { place($0.location) }
        var out = "<polyline points=\"\(points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " "))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"3\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n"
        // A dot every 100 ms of the touch, its time every 500 ms.
        var nextTick = (trace.points[0].time.microseconds - t0.microseconds) / 100_000 + 1
        for (point, (_, time)) in zip(points, trace.points) {
            let elapsed = time.microseconds - t0.microseconds
            guard elapsed >= nextTick * 100_000 else { continue }
            let tick = elapsed / 100_000
            out += "<circle cx=\"\(n(point.0))\" cy=\"\(n(point.1))\" r=\"3\" fill=\"\(colour)\" stroke=\"white\"/>\n"
            if tick % 5 == 0 {
                out += "<text x=\"\(n(point.0 + 6))\" y=\"\(n(point.1 - 6))\" font-size=\"11\" fill=\"\(colour)\">\(fixed(Double(tick) / 10, decimals: 1)) s</text>\n"
            }
            nextTick = tick + 1
        }
        if let end = points.last, trace.end != nil {
            if trace.end == .cancelled {
                out += "<path d=\"M\(n(end.0 - 6)),\(n(end.1 - 6)) L\(n(end.0 + 6)),\(n(end.1 + 6)) M\(n(end.0 - 6)),\(n(end.1 + 6)) L\(n(end.0 + 6)),\(n(end.1 - 6))\" stroke=\"\(colour)\" stroke-width=\"3\"/>\n"
            } else {
                out += "<rect x=\"\(n(end.0 - 5))\" y=\"\(n(end.1 - 5))\" width=\"10\" height=\"10\" fill=\"white\" stroke=\"\(colour)\" stroke-width=\"3\"/>\n"
            }
        }
        out += "<circle cx=\"\(n(startMark.0))\" cy=\"\(n(startMark.1))\" r=\"9\" fill=\"\(colour)\"/>\n"
        out += "<text x=\"\(n(startMark.0))\" y=\"\(n(startMark.1 + 4))\" font-size=\"11\" fill=\"white\" text-anchor=\"middle\" font-weight=\"bold\">\(trace.number)</text>\n"
        return out
    }

    private struct Line {
        var text: String
        var colour = "#222"
        var size = 13
        var bold = false
    }

    /// The column beside the panel: the touches, what fired, what failed and why.
    private func legend() -> [Line] {
        let t0 = start ?? Timestamp(microseconds: 0)
        func at(_ time: Timestamp) -> String { fixed(time.milliseconds(since: t0) / 1000, decimals: 2) }
        var lines = [Line(text: "Touches (● start, □ lift, × cancelled)", size: 15, bold: true)]
        for id in order {
            guard let trace = traces[id], let first = trace.points.first, let end = trace.points.last else { continue }
            let path = zip(trace.points, trace.points.dropFirst()).reduce(0.0) { total, pair in
                let d = pair.1.location - pair.0.location
                return total + Point(x: d.x * size.width, y: d.y * size.height).length
            }
            let state = trace.end.map { $0 == .cancelled ? "cancelled" : "lifted" } ?? "still down"
            lines.append(Line(text: "\(trace.number): \(at(first.time))–\(at(end.time)) s, \(fixed(path, decimals: 0)) mm, \(state)", colour: colour(trace.number)))
        }
        lines.append(Line(text: ""))
        lines.append(Line(text: fired.isEmpty ? "No gesture fired" : "Fired", colour: fired.isEmpty ? "#222" : "#1a7f37", size: 15, bold: true))
        for item in fired { lines.append(Line(text: at(item.time) + " s: " + item.text, colour: "#1a7f37")) }
        lines.append(Line(text: ""))
        lines.append(Line(text: failed.isEmpty ? "No recognizer failed" : "Did not fire, and why", colour: "#b42318", size: 15, bold: true))
        for item in failed {
            for (index, part) in wrap(at(item.time) + " s: " + item.text).enumerated() {
                lines.append(Line(text: (index > 0 ? "        " : "") + part, colour: "#b42318"))
            }
        }
        return lines
    }

    private var subtitle: String {
        let duration = start.flatMap { s in last.map { $0.milliseconds(since: s) / 1000 } } ?? 0
        return "\(order.count) touch\(order.count == 1 ? "" : "es") over \(fixed(duration, decimals: 2)) s; times from the first touch"
    }

    private func colour(_ number: Int) -> String { Self.colours[(number - 1) % Self.colours.count] }

    /// Splits at spaces into lines of at most `wrapAt` characters (a longer word stays whole).
    private func wrap(_ text: String) -> [String] {
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, current.count + 1 + word.count > Self.wrapAt {
                lines.append(current)
                current = String(word)
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        return lines + [current]
    }

    private func n(_ value: Double) -> String { fixed(value, decimals: 1) }

    private func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
