/// Updates of which only the latest counts (where the fingers are, how far an edge swipe
/// has gone), one stream per kind and destination, sent as far as the bus takes them.
/// While it is full, those in between are let go: the next one draws the fingers where
/// they are then. But the last of a stream (the lift, a swipe's end) has none after it, so
/// the latest that found no room is held and sent once the bus has some, unless a newer
/// one of its stream went out first. At most `mostStreams` are held (an overlay's, a
/// Progress's and an inspector's, each to one destination); those of a destination that
/// left are forgotten.
struct LatestUpdates {
    static let mostStreams = 8

    /// Makes the update's signal on a bus (to unref); nil when it cannot be made.
    typealias Signal = (OpaquePointer) -> OpaquePointer?

    /// A kind of update (its member) and its destination ("" for every listener).
    private struct Stream: Equatable {
        var member: String
        var destination: String
    }

    private var held: [(stream: Stream, signal: Signal)] = []

    var isEmpty: Bool { held.isEmpty }

    /// Sends the update now if `hasRoom`, letting go of the one its stream held; else
    /// holds it in that one's place.
    mutating func send(_ member: String, to destination: String?, on bus: OpaquePointer, hasRoom: Bool, _ signal: @escaping Signal) {
        let stream = Stream(member: member, destination: destination ?? "")
        held.removeAll { $0.stream == stream }
        guard hasRoom else {
            if held.count >= Self.mostStreams { held.removeFirst() }
            held.append((stream, signal))
            return
        }
        Self.write(signal, on: bus)
    }

    /// Sends what is held, oldest first, while the bus has room.
    mutating func sendHeld(on bus: OpaquePointer, while hasRoom: () -> Bool) {
        while !held.isEmpty, hasRoom() {
            Self.write(held.removeFirst().signal, on: bus)
        }
    }

    /// The destination left the bus: nothing held for it is sent.
    mutating func forget(destination: String) {
        held.removeAll { $0.stream.destination == destination }
    }

    mutating func forgetAll() { held.removeAll() }

    private static func write(_ signal: Signal, on bus: OpaquePointer) {
        guard let message = signal(bus) else { return }
        defer { SDBus.unref(message) }
        _ = SDBus.send(bus, message)
    }
}
