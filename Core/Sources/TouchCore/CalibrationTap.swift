/// What `gestured calibrate` takes from the touches on a target: one finger, put down and
/// lifted, at the mean of where it was meanwhile (a finger rolls a little as it presses).
/// A sequence with a second finger in it, or cancelled, gives nothing and is said.
public struct CalibrationTap: Sendable {
    public enum Result: Equatable, Sendable {
        /// One finger lifted: where it was, normalized over the device's axes.
        case touched(Point)
        /// More than one finger was down in the sequence: it is not taken.
        case moreThanOneFinger
        /// The sequence was cancelled (the device resynced, went away).
        case cancelled
    }

    private var sum = Point(x: 0, y: 0)
    private var samples = 0
    private var mostFingers = 0
    private var wasCancelled = false

    public init() {}

    /// Takes a decoded frame; a result when the frame ends a touch sequence.
    public mutating func take(_ frame: TouchFrame) -> Result? {
        let down = frame.touches.filter { $0.phase != .cancelled }
        mostFingers = max(mostFingers, down.count)
        if frame.touches.contains(where: { $0.phase == .cancelled }) { wasCancelled = true }
        // Where it was while down: the lift's frame repeats the last place.
        if let only = down.first, down.count == 1, only.phase.isDown {
            sum = sum + only.location
            samples += 1
        }
        guard !frame.touches.contains(where: \.phase.isDown) else { return nil }
        defer { self = CalibrationTap() }
        if wasCancelled { return .cancelled }
        if mostFingers > 1 { return .moreThanOneFinger }
        guard samples > 0 else { return nil }
        return .touched(Point(x: sum.x / Double(samples), y: sum.y / Double(samples)))
    }
}
