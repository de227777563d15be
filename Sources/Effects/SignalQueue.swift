import Bindings
import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Logging
import SystemPackage

/// Gesture signals waiting for the bus, at most `capacity`: when full, the oldest
/// `changed` goes first (a later one says as much), and only when there is none the
/// oldest of the rest; both are counted for the log.
struct SignalQueue {
    static let capacity = 1024

    private var entries: [(event: GestureEvent, device: String, step: StepCount?)] = []
    private(set) var dropped = (changed: 0, other: 0, total: 0)

    var isEmpty: Bool { entries.isEmpty }

    mutating func append(_ event: GestureEvent, device: String, step: StepCount?) {
        if entries.count >= Self.capacity {
            if let oldest = entries.firstIndex(where: { $0.event.phase == .changed }) {
                entries.remove(at: oldest)
                dropped.changed += 1
            } else {
                entries.removeFirst()
                dropped.other += 1
            }
            dropped.total += 1
        }
        entries.append((event, device, step))
    }

    mutating func removeFirst() -> (GestureEvent, String, StepCount?)? {
        entries.isEmpty ? nil : entries.removeFirst()
    }

    /// The counts since the last call.
    mutating func takeDropped() -> (changed: Int, other: Int) {
        defer { dropped = (0, 0, 0) }
        return (dropped.changed, dropped.other)
    }
}
