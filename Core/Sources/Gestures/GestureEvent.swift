import TouchCore

/// A recognized gesture or a step of a continuous one: what bindings act on.
public struct GestureEvent: Equatable, Sendable {
    /// The configured gesture's name.
    public var name: String
    public var type: GestureType
    public var phase: GesturePhase
    public var time: Timestamp
    public var fingers: Int
    /// The touches' centroid, normalized.
    public var location: Point
    public var direction: Direction?
    /// pinch: current spread over the spread when it began.
    public var scale: Double?
    /// rotate: radians since it began, clockwise positive (y points down).
    public var rotation: Double?
    /// pan: how far the centroid has moved since the fingers came down, in mm (x to the
    /// right, y downwards): what scrolling and steps follow.
    public var translation: Point?
    /// swipe, pan: mm/s; pinch: scale/s; rotate: rad/s.
    public var velocity: Double?
    /// What drew it: fingers, or a pen.
    public var tool = ContactTool.finger
    /// Each finger's position where the gesture's fingers came down and now, in mm from
    /// the panel's top left: only for a gesture handed to the virtual touchpad
    /// (`GestureSpec.tracksTouches`), empty otherwise.
    public var touches: [TouchTrack] = []

    public init(name: String, type: GestureType, phase: GesturePhase, time: Timestamp, fingers: Int, location: Point,
                direction: Direction? = nil, scale: Double? = nil, rotation: Double? = nil, translation: Point? = nil,
                velocity: Double? = nil) {
        self.name = name
        self.type = type
        self.phase = phase
        self.time = time
        self.fingers = fingers
        self.location = location
        self.direction = direction
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
        self.velocity = velocity
    }
}

/// One finger of a gesture, in mm from the panel's top left (x to the right, y downwards).
/// Made only by the recognizers, so its memberwise initializer stays internal.
public struct TouchTrack: Equatable, Sendable {
    public var start: Point
    public var now: Point
}
