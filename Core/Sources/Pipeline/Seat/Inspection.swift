import Bindings
import Gestures
import TouchCore

/// Who watches the seat's gestures being decided (the studio's inspector, through `Inspect`
/// on the bus): a process of the user in front, sent each update of the overlay's pace with
/// every gesture in the running. With `dryRun`, the actions of that user's own gestures are
/// held back while they try them; the machine's still act.
public struct Inspector: Equatable, Sendable {
    /// Its unique name on the bus: where the updates go, and who may end it.
    public var name: String
    /// Whose gestures a dry run holds back.
    public var owner: BindingOwner
    public var dryRun: Bool
}

/// What an inspector asks for: to watch, to watch with its user's actions held back, or
/// nothing more.
public enum InspectRequest: String, CaseIterable, Sendable {
    case off, on, dry
}

/// What the inspector is told beside the overlay's frame: which finger each point is (so
/// that it draws trails), each gesture in the running with its state, how far it got
/// toward its threshold and why it changed last (`replay --explain`'s reason), and the
/// application the sequence is for.
public struct InspectionDetail: Equatable, Sendable {
    public struct Gesture: Equatable, Sendable {
        public var name: String
        public var state: RecognizerState
        /// The furthest it got in this sequence, from 0 to 1.
        public var progress: Double
        /// Why it last changed state; nil while it has not.
        public var why: String?

        public init(name: String, state: RecognizerState, progress: Double, why: String?) {
            self.name = name
            self.state = state
            self.progress = progress
            self.why = why
        }
    }

    /// Each finger's touch id, in the order of the frame's fingers.
    public var touches: [Int]
    /// At most `mostGestures`: those that fired or are under way first, then the furthest.
    public var gestures: [Gesture]
    /// The fingers lifted: the verdicts are what the sequence decided.
    public var over: Bool
    /// The application of the window under the sequence's first touch (see `TouchscreenPipeline.app(at:)`).
    public var app: String?
    /// The panel's size, in millimetres: a shape drawn is learned as drawn, not stretched
    /// to the panel's proportions.
    public var widthMM: Double
    public var heightMM: Double

    /// A screen holds a dozen bars; a configuration may hold thousands of gestures.
    public static let mostGestures = 12

    public init(touches: [Int], gestures: [Gesture], over: Bool, app: String?, widthMM: Double, heightMM: Double) {
        self.touches = touches
        self.gestures = gestures
        self.over = over
        self.app = app
        self.widthMM = widthMM
        self.heightMM = heightMM
    }
}

/// What each panel's sequence decided so far, for the inspector: the recognizers start
/// over when the fingers lift, and a verdict may come after (a tap waiting for a second).
struct InspectionMemory {
    private struct Sequence {
        var gestures: [String: InspectionDetail.Gesture] = [:]
        var app: String?
        var over = false
    }

    private var sequences: [String: Sequence] = [:]

    /// The detail of a panel's step: a sequence's first frame starts it anew.
    mutating func detail(of step: Step, on panel: String, _ pipeline: TouchscreenPipeline) -> InspectionDetail {
        let down = step.frame?.touches.filter { $0.phase.isDown } ?? []
        if let touches = step.frame?.touches, !touches.isEmpty, touches.allSatisfy({ $0.phase == .began }) {
            sequences[panel] = Sequence(app: touches.first.flatMap { pipeline.app(at: $0.location) }?.names.first)
        }
        var sequence = sequences[panel] ?? Sequence()
        if !down.isEmpty {
            pipeline.gesturesInPlay { name, state, progress in
                var gesture = sequence.gestures[name] ?? .init(name: name, state: state, progress: 0, why: nil)
                gesture.state = state
                // Out of the running, its fingers still move: how far it got stays as it was.
                if state == .possible || state.isActive { gesture.progress = max(gesture.progress, progress) }
                sequence.gestures[name] = gesture
            }
        }
        for change in step.transitions {
            var gesture = sequence.gestures[change.gesture] ?? .init(name: change.gesture, state: change.to, progress: 0, why: nil)
            gesture.state = change.to
            gesture.why = change.reason
            if change.to == .ended || change.to.isActive { gesture.progress = 1 }
            sequence.gestures[change.gesture] = gesture
        }
        if step.frame != nil, down.isEmpty { sequence.over = true }
        sequences[panel] = sequence
        let ranked = sequence.gestures.values.sorted {
            (Self.firedFirst($0.state), -$0.progress, $0.name) < (Self.firedFirst($1.state), -$1.progress, $1.name)
        }
        let size = pipeline.geometry.size
        return InspectionDetail(touches: down.map(\.id), gestures: Array(ranked.prefix(InspectionDetail.mostGestures)),
                                over: sequence.over, app: sequence.app, widthMM: size.width, heightMM: size.height)
    }

    private static func firedFirst(_ state: RecognizerState) -> Int {
        state == .ended || state.isActive ? 0 : 1
    }

    mutating func forget(_ panel: String) { sequences[panel] = nil }

    mutating func forgetAll() { sequences = [:] }
}
