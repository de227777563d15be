/// `click = "right"` (and `double = true`): a button of gestured's virtual pointer, pressed
/// and released `count` times where the gesture is.
public struct Click: Codable, Equatable, Sendable {
    public var button: MouseButton
    public var count: Int

    public init(_ button: MouseButton, count: Int = 1) {
        self.button = button
        self.count = count
    }
}
