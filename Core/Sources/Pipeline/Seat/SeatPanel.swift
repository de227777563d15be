import Config
import TouchCore

/// A panel the seat reads: its pipeline, and what it knew of the device when it appeared.
public final class SeatPanel {
    public let node: String
    public let pipeline: TouchscreenPipeline
    public let device: SeatDevice
    /// A touchscreen's palm under its paired pen.
    @exclusivity(unchecked) public internal(set) var palm = Palm.free

    init(_ device: SeatDevice, pipeline: TouchscreenPipeline) {
        node = device.node
        self.device = device
        self.pipeline = pipeline
    }

    public var name: String { pipeline.device.name }
    /// Whether the seat asked for its twin (and was not told that it failed).
    public var isolated: Bool { pipeline.isolation != nil }
}
