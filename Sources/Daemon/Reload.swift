import Config
import Effects
#if canImport(Glibc)
import Glibc
#endif
import Input
import Loop
import Pipeline
import SystemIO
import TouchCore

extension Daemon {
    /// SIGHUP: the file is read (and, as root, checked) at once and parsed by a helper
    /// process while the loop goes on with the running configuration; only applying the
    /// outcome takes the loop's time. A configuration with errors is rejected (the running
    /// one stays). A good one takes over each touchscreen at its next touch sequence; a
    /// touchscreen it ignores is let go, and one it no longer ignores is opened. A SIGHUP
    /// during a reload reads the file again once that one is done.
    func reload() {
        guard let path = options.configPath else { return logger.info("reload: no configuration file, nothing to do") }
        guard !runtime.isParsing else {
            reloads.again = true
            return logger.info("reload: one is under way; the file is read again when it is done")
        }
        SystemdNotify.send("RELOADING=1")
        let bytes: [UInt8]
        do { bytes = try readDaemonConfiguration(path) } catch {
            return finishReload(path) { throw error }
        }
        do {
            try runtime.parse(bytes, file: path) { [unowned self] parse, status in
                finishReload(parse.file) { try parse.finish(status) }
                if reloads.again {
                    reloads.again = false
                    reload()
                }
            }
        } catch {
            finishReload(path) { throw error }
        }
    }

    private func finishReload(_ path: String, _ parse: () throws -> Configuration) {
        defer { SystemdNotify.send("READY=1") }
        let started = monotonicMicroseconds()
        do {
            let (next, warnings) = try acceptDaemonConfiguration(try parse(), path: path)
            for warning in warnings { logger.warning("\(warning)") }
            try apply(next)
            // Panels a rule ignored until now, and those let go to be opened anew.
            if touchscreens.udev != nil { enumerate() }
            let milliseconds = Double(monotonicMicroseconds() - started) / 1000
            logger.info("reload: \(path): \(next.gestures.count) gestures (applied in \(fixed(milliseconds, decimals: 1)) ms)")
            answerReloadCallers(nil)
        } catch {
            logger.error("reload: rejected, keeping the running configuration:\n\(error)")
            answerReloadCallers("rejected, the running configuration stays:\n\(error)")
        }
    }
}

/// The daemon's reloads: whether another was asked for while one is parsed, and the
/// control interface's Reload calls, answered when it is applied or rejected.
struct Reloads {
    var again = false
    var callers: [(BusControlError?) -> Void] = []
}
