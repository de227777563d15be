import TouchCore

/// A touch a recognizer follows: where it started, where it is, how far it went.
struct TrackedTouch {
    var id: Int
    var start: Point
    var location: Point
    var startTime: Timestamp
    var time: Timestamp
    var isDown = true
    /// Path length so far, in millimetres.
    var pathMM = 0.0
}
