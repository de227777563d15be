import CGtk
import Effects
import SystemIO

/// A bus connection (`BusSource`) run by GTK's main loop, as the daemon's loop runs its
/// own: its socket watched as it asks, and run again at its deadline.
@MainActor
final class GLibBus {
    private let source: BusSource
    private var watch: guint = 0
    private var timer: guint = 0
    /// sd-bus cannot be processed from within its own processing (a signal's handler
    /// that asks again): a run asked for meanwhile happens once the current one ends.
    private var running = false
    private var runAgain = false

    init(_ source: BusSource) {
        self.source = source
        source.onWatchChange = { [unowned self] _, new in
            MainActor.assumeIsolated { watch(new) }
        }
    }

    private func watch(_ new: BusService.Watch?) {
        if watch != 0 { g_source_remove(watch) }
        watch = 0
        guard let new else { return }
        watch = gestured_watch_fd(new.fd.rawValue, new.writable ? 1 : 0, { _, _, data in
            guard let data else { return 0 }
            MainActor.assumeIsolated { Unmanaged<GLibBus>.fromOpaque(data).takeUnretainedValue().run() }
            return 1
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// What arrived, then the timer set for the next deadline.
    func run() {
        guard !running else { return runAgain = true }
        running = true
        repeat {
            runAgain = false
            source.process()
        } while runAgain
        running = false
        if timer != 0 { g_source_remove(timer) }
        timer = 0
        guard let due = source.nextDeadline else { return }
        let milliseconds = max(0, (due - monotonicMicroseconds()) / 1000) + 1
        timer = g_timeout_add(guint(clamping: milliseconds), { data in
            guard let data else { return 0 }
            MainActor.assumeIsolated {
                let bus = Unmanaged<GLibBus>.fromOpaque(data).takeUnretainedValue()
                bus.timer = 0
                bus.run()
            }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}
