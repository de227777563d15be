#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Errors go straight to stderr, unbuffered, so they sit next to the output they explain.
public func printError(_ message: String) {
    printErrorRaw(message + "\n")
}

public func printErrorRaw(_ text: String) {
    let bytes = Array(text.utf8)
    // Nothing is left to tell if stderr itself fails.
    _ = try? bytes.withUnsafeBytes { try FileDescriptor.standardError.writeAll($0) }
}

/// Whether a descriptor is a terminal (a person watching), not a file or a pipe.
public func isTerminal(_ fd: FileDescriptor) -> Bool {
    isatty(fd.rawValue) == 1
}
