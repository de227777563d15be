#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// Process-wide signal dispositions.
public enum Signals {
    /// SIGPIPE ignored; commands get it back (`Spawn` resets every disposition).
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
