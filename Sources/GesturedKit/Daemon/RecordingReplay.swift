import Config
import TouchCore

/// A recording standing in for a device: its events are fed when their time comes,
/// `speed` times faster than recorded, as a device's would be.
final class RecordingReplay {
    private let recording: Recording
    private let screen: Touchscreen
    private unowned let daemon: Daemon
    private var next = 0
    private(set) var isFinished = false

    init(path: String, daemon: Daemon) throws {
        recording = try Recording.load(path)
        self.daemon = daemon
        screen = try Touchscreen(description: recording.description, config: daemon.config,
                                 origin: monotonicMicroseconds(), speed: daemon.options.speed)
        daemon.add(screen)
        daemon.logger.info("replaying \(path) as '\(screen.name)' at \(daemon.options.speed)× speed")
    }

    /// When the next event is due, on the monotonic clock.
    var nextTime: Int64? { next < recording.events.count ? screen.monotonic(recording.events[next].time) : nil }

    func feedDue(now: Int64) {
        while next < recording.events.count, screen.monotonic(recording.events[next].time) <= now {
            screen.feed(recording.events[next])
            next += 1
        }
        if next == recording.events.count, !isFinished {
            isFinished = true
            screen.cancelTouches(at: now)
        }
    }
}
