import RealModule
import TouchCore

/// Taps that wait for each other by themselves: the same fingers in the same region. A
/// tap waits for the taps of its group with more taps, so a double tap is never also two
/// single taps.
public struct TapGroup: Hashable, Sendable {
    var fingers: Int
    var region: String
    var bounds: [Double]

    public init(_ spec: GestureSpec) {
        fingers = spec.fingers
        region = spec.region.name
        bounds = [spec.region.x.lowerBound, spec.region.x.upperBound, spec.region.y.lowerBound, spec.region.y.upperBound]
    }
}
