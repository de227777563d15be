import RealModule
import TouchCore

/// One configured gesture: what to recognize, where, and how it relates to the others.
/// Every threshold has a default; lengths are millimetres, times milliseconds.
public struct GestureSpec: Equatable, Codable, Sendable {
    public var name: String
    public var type: GestureType
    public var region: Region = .screen
    /// Names of gestures that must fail before this one may be recognized.
    public var requiresFailureOf: [String] = []
    /// Names of gestures this one may be recognized together with.
    public var simultaneousWith: [String] = []
    /// The modes it fires in (`GestureSpec.everyMode` for all of them).
    public var modes: [String] = [GestureSpec.defaultMode]
    /// Whether it still fires while the session is locked.
    public var whenLocked = false
    /// Only in tablet mode (true), only out of it (false), or in both (nil): a 2-in-1's
    /// SW_TABLET_MODE, the screen folded back or the keyboard taken off.
    public var whenTablet: Bool?
    /// Whether its binding may end the touch lock (`touch_lock = "unlock"` or
    /// `"toggle"`): such gestures alone fire while it holds.
    public var unlocksTouch = false
    /// Its events say where each finger is (`GestureEvent.touches`): its binding hands
    /// it to the virtual touchpad.
    public var tracksTouches = false
    /// What may draw it: fingers, a pen, or either (nil).
    public var tool: ContactTool?
    /// The applications it is for, or not for (`apps`, `not_apps`).
    public var apps = AppCondition()

    /// Touch delivery to the twin of an isolated panel, with UIKit's names and defaults:
    /// recognized, it cancels the touches the twin already got; while it may succeed, the
    /// twin gets no touches (off by default) and no lifts (on by default).
    public var cancelsTouches = true
    public var delaysTouchesBegan = false
    public var delaysTouchesEnded = true
    /// With `delaysTouchesBegan`: the twin's touches are held once this many fingers are
    /// down. 1 is UIKit's (from the first finger); a gesture of three fingers or more
    /// holds from its own count, so that fewer fingers, an application's input, pass at
    /// once and a desktop never sees three moving.
    public var delaysFromFingers = 1

    public var fingers = 1
    /// tap: how many taps.
    public var taps = 1
    /// swipe: the direction (any when nil); chevron: where its point points.
    public var direction: Direction?
    /// The directions a swipe, pan or edge swipe may go (`angle`), instead of a named one.
    public var angle: AngleRange?
    /// edge-swipe: the edge the touch starts from, and optionally a part of it (0…1 along it).
    public var edge: Edge?
    /// An edge swipe's `tag`: followed to its lift on the Progress signal.
    public var progressTag: String?
    public var edgeRange: ClosedRange<Double> = 0...1

    /// A sequence's steps before this one (`then`), in order: each is recognized before
    /// the next begins; the gesture's own shape is the last step. Empty for one gesture.
    public var earlierSteps: [GestureSpec] = []
    /// A step after the first: the longest from the step before (its recognition, or the
    /// lift of its fingers) to this step's first touch.
    public var withinMS = 350.0
    /// Steps in a sequence, at most: each is a recognizer of its own.
    public static let mostSteps = 4

    /// tap, long-press: how far a finger may move and still count as still.
    public var maxMovementMM = 6.0
    /// tap: the longest a finger may stay down.
    public var maxDurationMS = 1000.0
    /// tap: the longest wait between taps of a multi-tap.
    public var maxIntervalMS = 350.0
    /// long-press: how long the fingers must stay down.
    public var minDurationMS = 500.0
    /// swipe, edge-swipe, pan: the distance before recognizing.
    public var minDistanceMM = 20.0
    /// swipe: the average speed it needs.
    public var minSpeedMMPerS = 25.0
    /// pinch: the scale change before it begins (0.1 = 10 %).
    public var minScaleChange = 0.1
    /// rotate: the angle before it begins, in radians.
    public var minRotation = 0.2
    /// A pan, pinch or rotation under way rests this long when its fingers lift, and goes
    /// on if as many come back (0: it ends at the lift).
    public var resumeMS = 0.0
    /// edge-swipe: how close to the edge the touch must start.
    public var edgeZoneMM = 8.0
    /// checkmark, chevron, stroke: the smallest stroke (its bounding box's larger side).
    public var minSizeMM = 10.0
    /// stroke: examples of the shape, and how similar to the closest one a stroke must be
    /// (1 − angle / 90°, 1 for the same shape; see `StrokeMatcher`).
    public var templates: [StrokeTemplate] = []
    public var minSimilarity = 0.75
    /// The spread of `templates` (`StrokeMatcher.spread(of:)`), found once when the
    /// configuration is read: every arbiter's matcher takes it from here.
    public var templateSpread: Double?
    /// A learned stroke's examples, at most: matching is linear in them, their spread
    /// quadratic.
    public static let mostTemplates = 20

    /// The mode a gesture without `modes` fires in, and the one the daemon starts in.
    public static let defaultMode = "default"
    /// In `modes`: every mode.
    public static let everyMode = "*"

    /// What makes it: two gestures of one trigger are "the same gesture" for different
    /// applications (see `GestureGate.admitted`).
    public var trigger: Trigger {
        Trigger(type: type, fingers: fingers, taps: taps, direction: direction, angle: angle, edge: edge, region: region.name, tool: tool,
                earlier: earlierSteps.map(\.trigger))
    }

    public struct Trigger: Hashable, Sendable {
        var type: GestureType
        var fingers: Int
        var taps: Int
        var direction: Direction?
        var angle: AngleRange?
        var edge: Edge?
        var region: String
        var tool: ContactTool?
        var earlier: [Trigger]
    }

    public func fires(inMode mode: String) -> Bool { Self.fires(modes: modes, inMode: mode) }

    /// Whether a gesture of these modes fires in `mode` (`status` asks it of the bus's list).
    public static func fires(modes: [String], inMode mode: String) -> Bool {
        modes.contains(mode) || modes.contains(everyMode)
    }

    public init(name: String, type: GestureType) {
        self.name = name
        self.type = type
        if type == .pinch || type == .rotate { fingers = 2 }
        if type == .pan { minDistanceMM = 5 }
    }
}

func atan2Degrees(y: Double, x: Double) -> Double {
    Double.atan2(y: y, x: x) * 180 / Double.pi
}

func cosDegrees(_ angle: Double) -> Double { Double.cos(angle * Double.pi / 180) }
func sinDegrees(_ angle: Double) -> Double { Double.sin(angle * Double.pi / 180) }
