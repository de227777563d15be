/// A panel's binding that has something of gestured's devices: keys and a button held
/// (`HeldInput`), or the virtual touchpad's fingers (`TouchpadFingers`).
public struct GestureHolder: Hashable, Comparable, Sendable {
    public var panel: String
    public var binding: String

    public init(panel: String, binding: String) {
        self.panel = panel
        self.binding = binding
    }

    public static func < (a: GestureHolder, b: GestureHolder) -> Bool { (a.panel, a.binding) < (b.panel, b.binding) }
}
