import Gestures
import TouchCore

/// One update of the Progress signal (`tag` on an edge swipe), for the session in front's
/// agent to say on its session bus: how far across the screen the swipe's fingers are
/// from its edge, 0 at the edge to 1 at the far side, so that a drawer can follow them
/// and snap at the lift.
public struct ProgressUpdate: Equatable, Sendable {
    public var gesture: String
    public var tag: String
    public var progress: Double
    /// began (it fired), changed, ended (the fingers lifted), cancelled.
    public var phase: GesturePhase

    public init(gesture: String, tag: String, progress: Double, phase: GesturePhase) {
        self.gesture = gesture
        self.tag = tag
        self.progress = progress
        self.phase = phase
    }
}

/// Each panel's tagged edge swipe from the moment it fires until its fingers lift: its
/// fingers followed by touch id, their progress paced (`PanelPace`), its begin and its end
/// at once.
struct ProgressStream {
    private struct Following {
        var update: ProgressUpdate
        var edge: Edge
        var touches: [Int]
    }

    private var following: [String: Following] = [:]
    /// A 60 Hz screen's rate, not the overlay's faster one: every listener on the user's
    /// session bus wakes for each update, and none is drawn sooner than the screen shows it.
    private var pace = PanelPace<ProgressUpdate>(perSecond: 60)
    var isFollowing: Bool { !following.isEmpty }

    /// When the earliest waiting update is due.
    var due: Timestamp? { pace.due }

    /// The updates a panel's step makes now. `tagged`: a gesture's tag and edge, when it has them.
    mutating func updates(of step: Step, on panel: String, at time: Timestamp, tagged: (String) -> (tag: String, edge: Edge)?) -> [ProgressUpdate] {
        var out: [ProgressUpdate] = []
        if var followed = following[panel] {
            let touchCancelled = step.frame?.touches.contains { $0.phase == .cancelled && followed.touches.contains($0.id) } ?? false
            let down = step.frame?.touches.filter { $0.phase.isDown && followed.touches.contains($0.id) } ?? []
            if step.input.abandons || touchCancelled || (step.frame != nil && down.isEmpty) {
                following[panel] = nil
                pace.forget(panel)
                followed.update.phase = step.input.abandons || touchCancelled ? .cancelled : .ended
                out.append(followed.update)
            } else if step.frame != nil {
                followed.update.progress = Self.across(down.map(\.location), from: followed.edge)
                followed.update.phase = .changed
                following[panel] = followed
                if let now = pace.offer(followed.update, of: panel, at: time) { out.append(now) }
            }
        }
        for event in step.events where event.phase == .recognized && following[panel] == nil {
            guard let (tag, edge) = tagged(event.name), let frame = step.frame else { continue }
            let down = frame.touches.filter(\.phase.isDown)
            let update = ProgressUpdate(gesture: event.name, tag: tag, progress: Self.across(down.map(\.location), from: edge), phase: .began)
            following[panel] = Following(update: update, edge: edge, touches: down.map(\.id))
            pace.sent(of: panel, at: time)
            out.append(update)
        }
        return out
    }

    /// The waiting updates due by `time`.
    mutating func take(by time: Timestamp) -> [ProgressUpdate] { pace.take(by: time).map(\.update) }

    /// A panel gone, or another owner in front: what it followed is cancelled.
    mutating func forget(_ panel: String?) -> [ProgressUpdate] {
        let gone = following.filter { panel == nil || $0.key == panel }
        for key in gone.keys { following[key] = nil }
        pace.forget(panel)
        return gone.values.map { var update = $0.update; update.phase = .cancelled; return update }.sorted { $0.gesture < $1.gesture }
    }

    /// How far the fingers' centroid is from the edge, across the screen (0 to 1).
    static func across(_ points: [Point], from edge: Edge) -> Double {
        guard !points.isEmpty else { return 0 }
        let c = points.reduce(Point.zero, +) * (1 / Double(points.count))
        let fraction = switch edge {
        case .top: c.y
        case .bottom: 1 - c.y
        case .left: c.x
        case .right: 1 - c.x
        }
        return fraction.isFinite ? min(max(fraction, 0), 1) : 0
    }
}
