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
/// fingers followed by touch id, their progress said at most 60 times a second (one due
/// sooner waits, the latest replacing it, and goes out when its time comes), its begin
/// and its end at once.
struct ProgressStream {
    private struct Following {
        var update: ProgressUpdate
        var edge: Edge
        var touches: [Int]
        var sentAt: Timestamp
        var waiting: ProgressUpdate?
    }

    private var following: [String: Following] = [:]
    var isFollowing: Bool { !following.isEmpty }

    /// When the earliest waiting update is due.
    var due: Timestamp? {
        following.values.compactMap { $0.waiting == nil ? nil : $0.sentAt + FeedbackStream.spacingMS }.min()
    }

    /// The updates a panel's step makes now. `tagged`: a gesture's tag and edge, when it has them.
    mutating func updates(of step: Step, on panel: String, at time: Timestamp, tagged: (String) -> (tag: String, edge: Edge)?) -> [ProgressUpdate] {
        var out: [ProgressUpdate] = []
        if var followed = following[panel] {
            let touchCancelled = step.frame?.touches.contains { $0.phase == .cancelled && followed.touches.contains($0.id) } ?? false
            if step.input.abandons || touchCancelled {
                following[panel] = nil
                followed.update.phase = .cancelled
                out.append(followed.update)
            } else if let frame = step.frame {
                let down = frame.touches.filter { $0.phase.isDown && followed.touches.contains($0.id) }
                if down.isEmpty {
                    following[panel] = nil
                    followed.update.phase = .ended
                    out.append(followed.update)
                } else {
                    followed.update.progress = Self.across(down.map(\.location), from: followed.edge)
                    followed.update.phase = .changed
                    if time >= followed.sentAt + FeedbackStream.spacingMS {
                        followed.sentAt = time
                        followed.waiting = nil
                        out.append(followed.update)
                    } else {
                        followed.waiting = followed.update
                    }
                    following[panel] = followed
                }
            }
        }
        for event in step.events where event.phase == .recognized && following[panel] == nil {
            guard let (tag, edge) = tagged(event.name), let frame = step.frame else { continue }
            let down = frame.touches.filter(\.phase.isDown)
            let update = ProgressUpdate(gesture: event.name, tag: tag, progress: Self.across(down.map(\.location), from: edge), phase: .began)
            following[panel] = Following(update: update, edge: edge, touches: down.map(\.id), sentAt: time)
            out.append(update)
        }
        return out
    }

    /// The waiting updates due by `time`.
    mutating func take(by time: Timestamp) -> [ProgressUpdate] {
        var due: [ProgressUpdate] = []
        for (panel, followed) in following {
            guard let waiting = followed.waiting, followed.sentAt + FeedbackStream.spacingMS <= time else { continue }
            due.append(waiting)
            following[panel]?.waiting = nil
            following[panel]?.sentAt = time
        }
        return due.sorted { $0.gesture < $1.gesture }
    }

    /// A panel gone, or another owner in front: what it followed is cancelled.
    mutating func forget(_ panel: String?) -> [ProgressUpdate] {
        let gone = following.filter { panel == nil || $0.key == panel }
        for key in gone.keys { following[key] = nil }
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
