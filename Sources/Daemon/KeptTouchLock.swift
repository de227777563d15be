import SystemIO

/// The touch lock kept through a restart (`keep_touch_lock`): a file in the state
/// directory systemd gives the service (StateDirectory=gestured, `$STATE_DIRECTORY`:
/// /var/lib/gestured, or ~/.local/state/gestured for the user service) while it is on.
/// Outside a unit there is no state directory, and nothing is kept.
enum KeptTouchLock {
    static var path: String? {
        Environment.value("STATE_DIRECTORY").flatMap { $0.split(separator: ":").first.map { "\($0)/touch-locked" } }
    }

    /// Whether the lock was on when gestured last stopped.
    static var kept: Bool { path.map(Files.exists) ?? false }

    /// Remembers it, or forgets it; why not, in words, when that fails.
    static func keep(_ locked: Bool) -> String? {
        guard let path else { return "no state directory (STATE_DIRECTORY): run gestured from its unit, which gives one" }
        guard locked else {
            do { try Files.remove(path) } catch { return "cannot remove \(path): \(error)" }
            return nil
        }
        do {
            try Files.write("the touch lock is on; gestured takes it at its next start (keep_touch_lock)\n", toFile: path,
                            permissions: [.ownerReadWrite])
        } catch {
            return "cannot write \(path): \(error)"
        }
        return nil
    }
}
