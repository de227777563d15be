import RealModule
import TouchCore

/// Taps that wait for each other by themselves: the same fingers in the same region. A
/// tap waits for the members of its group with a higher `rank`, so a double tap is never
/// also two single taps, and five taps are never also the start of five taps then a hold.
public struct TapGroup: Hashable, Sendable {
    var fingers: Int
    var region: String
    var bounds: [Double]

    /// The group of a tap, or of a sequence that begins with taps; nil for any other.
    public init?(_ spec: GestureSpec) {
        let first = spec.earlierSteps.first ?? spec
        guard first.type == .tap else { return nil }
        fingers = first.fingers
        region = spec.region.name
        bounds = [spec.region.x.lowerBound, spec.region.x.upperBound, spec.region.y.lowerBound, spec.region.y.upperBound]
    }

    /// Where a member stands in its group: by its taps, a sequence above the tap of as
    /// many taps it begins with (it is that tap and more). Nil outside a group.
    public static func rank(of spec: GestureSpec) -> Int? {
        let first = spec.earlierSteps.first ?? spec
        guard first.type == .tap else { return nil }
        return 2 * first.taps + (spec.earlierSteps.isEmpty ? 0 : 1)
    }

    /// Whether a member waits for others of its group: only a tap that is all of its
    /// gesture. A sequence that begins with taps is waited for, and waits for no tap.
    public static func waits(_ spec: GestureSpec) -> Bool { spec.type == .tap && spec.earlierSteps.isEmpty }
}
