#if canImport(Glibc)
import Glibc
#endif
import Input
import SystemIO
import SystemPackage
import TouchCore

/// `gestured calibrate`'s touches: one finger's on each target in turn, read from one
/// device, as it reports them (no calibration), until a time runs out or Ctrl-C.
final class TargetTouches {
    /// What ended the wizard before a result: said, nothing written.
    struct End: Error, CustomStringConvertible {
        var description: String
    }

    private let device: EvdevDevice
    private var decoder: TouchDecoder
    private var tap = CalibrationTap()
    private let signals: FileDescriptor
    private let timeoutSeconds: Int
    private let say: (String) -> Void

    init(_ device: EvdevDevice, timeoutSeconds: Int, say: @escaping (String) -> Void) throws {
        var raw = device.description
        raw.calibration = nil
        guard let decoder = TouchDecoder(description: raw) else {
            throw End(description: "error: \(device.path) reports no position axes: it is no touchscreen to calibrate")
        }
        self.device = device
        self.decoder = decoder
        self.timeoutSeconds = timeoutSeconds
        self.say = say
        // Ctrl-C from now on ends the wizard through the wait, with the terminal restored.
        signals = try SignalFD.create([SIGINT, SIGTERM])
    }

    deinit { Syscall.release(signals) }

    /// The touch of one finger on target `index` (counted from 0), normalized over the
    /// device's axes.
    func touch(on index: Int) throws -> Point {
        let deadline = monotonicMicroseconds() + Int64(timeoutSeconds) * 1_000_000
        while true {
            let left = deadline - monotonicMicroseconds()
            guard left > 0 else {
                throw End(description: "error: no touch on target \(index + 1) in \(timeoutSeconds) s; nothing was written. Is the touch locked (`gestured status`)?")
            }
            let ready = try Syscall.waitReadable([device.fd, signals], timeoutMs: Int32(min(left / 1000 + 1, 60_000)))
            if ready[1] { throw End(description: "stopped: nothing was written") }
            guard ready[0] else { continue }
            var result: CalibrationTap.Result?
            let end = device.read { event in
                // Decoded to the end of the read: the device's state stays whole for the next target.
                if decoder.process(event), result == nil { result = tap.take(decoder.frame) }
            }
            if case .removed = end { throw End(description: "error: \(device.path) went away; nothing was written") }
            switch result {
            case .touched(let point): return point
            case .moreThanOneFinger: say("one finger at a time: touch target \(index + 1) again")
            case .cancelled, nil: continue
            }
        }
    }
}
