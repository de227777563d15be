/// Wheel movement for a pan with `scroll = true`, in the kernel's high-resolution units
/// (120 a notch: REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES) and in whole notches for
/// applications that read only those (REL_WHEEL, REL_HWHEEL). Positive: up, right. Made only
/// by the binding table, so its memberwise initializer stays internal.
public struct ScrollAction: Equatable, Sendable {
    public var binding: String
    public var vertical: Int
    public var horizontal: Int
    public var verticalDetents: Int
    public var horizontalDetents: Int
}
