#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// Whether the session agent is wanted: `/run/gestured/agent`, in the system service's
/// runtime directory, exists while the service runs (each session's agent hands it its
/// user's gestures and runs their commands), and the agent's user unit starts only
/// where it exists (ConditionPathExists), so that a session on a machine where the
/// service is not running runs no agent (and in KDE Plasma loads no KWin script).
/// Outside the service (no runtime directory: `gestured run` by hand) nothing is written.
public enum AgentWanted {
    public static let path = "/run/gestured/agent"

    /// Says so, or takes it back; an error only when the runtime directory is there.
    public static func set(_ wanted: Bool) throws(Files.CreateError) {
        guard Environment.value("RUNTIME_DIRECTORY") != nil || Files.exists("/run/gestured") else { return }
        guard wanted else {
            _ = unlink(path)
            return
        }
        try Files.write("the system service runs: each graphical session's agent hands it its user's gestures and runs their commands\n", toFile: path,
                        permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }
}
