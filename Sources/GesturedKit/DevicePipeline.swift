import Config
import Gestures
import TouchCore

/// One touchscreen's path from events to gestures, set up by the configuration's first
/// matching `[[device]]` rule: orientation, size, and the gestures that apply to it.
struct DevicePipeline {
    var decoder: TouchDecoder
    let arbiter: Arbiter

    enum Refusal: Error {
        /// A `[[device]]` rule says `ignore = true`.
        case ignored
        /// No position axes: not a touchscreen.
        case noPositionAxes
    }

    init(_ description: DeviceDescription, config: Configuration) throws(Refusal) {
        let rule = config.rule(for: description)
        if rule?.ignore == true { throw .ignored }
        let orientation = Orientation(rotation: rule?.rotation ?? 0, invertX: rule?.invertX ?? false, invertY: rule?.invertY ?? false)
        guard let decoder = TouchDecoder(description: description, sizeOverride: rule?.sizeMM, orientation: orientation) else {
            throw .noPositionAxes
        }
        self.decoder = decoder
        arbiter = Arbiter(gestures: config.gestures(for: rule), geometry: decoder.geometry)
    }
}
