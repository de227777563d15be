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
        guard reloads.parsing == nil else {
            reloads.again = true
            return logger.info("reload: one is under way; the file is read again when it is done")
        }
        SystemdNotify.send("RELOADING=1")
        let bytes: [UInt8]
        do { bytes = try readDaemonConfiguration(path) } catch {
            return finishReload(path) { throw error }
        }
        let parse: ConfigParse
        do { parse = try ConfigParse.start(bytes, file: path) } catch {
            return finishReload(path) { throw error }
        }
        reloads.parsing = PendingReload(parse: parse, deadline: monotonicMicroseconds() + ConfigParse.timeoutMicroseconds)
        runtime.watch(parse.output, "the configuration's parsing helper") { [unowned self] in
            guard reloads.parsing != nil else { return }
            if reloads.parsing!.parse.read() {
                reloads.parsing!.outputDone = true
                runtime.unwatch(reloads.parsing!.parse.output)
                completeReload()
            }
        }
    }

    /// The loop reaped the helper.
    func reloadHelperExited(_ status: Spawn.ExitStatus) {
        reloads.parsing?.exit = status
        completeReload()
    }

    /// A helper past its time is killed; its end then comes as any other.
    func enforceReloadTimeout(now: Int64) {
        guard let pending = reloads.parsing, pending.deadline <= now else { return }
        try? Spawn.kill(group: pending.parse.pid, SIGKILL)
        reloads.parsing?.deadline = .max
    }

    /// Once the helper has both exited and closed its output.
    private func completeReload() {
        guard let pending = reloads.parsing, pending.outputDone, let status = pending.exit else { return }
        Syscall.release(pending.parse.output)
        reloads.parsing = nil
        finishReload(pending.parse.file) { try pending.parse.finish(status) }
        if reloads.again {
            reloads.again = false
            reload()
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

/// The daemon's reloads: the one being parsed, whether another was asked for meanwhile,
/// and the control interface's Reload calls, answered when it is applied or rejected.
struct Reloads {
    var parsing: PendingReload?
    var again = false
    var callers: [(BusControlError?) -> Void] = []
}
