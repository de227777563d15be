#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// Whether the session agent is wanted: `/run/gestured/agent`, in the system service's
/// runtime directory, exists while the service's configuration has gestures for some
/// applications only (the application in front is then wanted), and the agent's user
/// unit starts only where it exists (ConditionPathExists), so that a session where the
/// service is not used, or does not need it, runs no agent (and in KDE Plasma loads no
/// KWin script). Outside the service (no runtime directory: `gestured run` by hand, the
/// user service) nothing is written.
public enum AgentWanted {
    public static let path = "/run/gestured/agent"

    /// Says so, or takes it back; an error only when the runtime directory is there.
    public static func set(_ wanted: Bool) throws(Files.CreateError) {
        guard Environment.value("RUNTIME_DIRECTORY") != nil || Files.exists("/run/gestured") else { return }
        guard wanted else {
            _ = unlink(path)
            return
        }
        try Files.write("the system service's configuration has gestures for some applications only\n", toFile: path,
                        permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }
}
