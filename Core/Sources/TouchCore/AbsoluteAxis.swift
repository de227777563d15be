/// The range of one absolute axis (`struct input_absinfo`, an evemu `A:` line).
public struct AbsoluteAxis: Equatable, Sendable {
    public var code: UInt16
    public var minimum: Int32
    public var maximum: Int32
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int32

    public init(code: UInt16, minimum: Int32, maximum: Int32, resolution: Int32 = 0) {
        self.code = code
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }
}
