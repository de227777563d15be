#if canImport(Glibc)
import Glibc
#endif
import CLinux
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

/// A terminal's size in character cells; nil when `fd` is no terminal or says 0 × 0 (a
/// serial line that was never told).
public func terminalSize(_ fd: FileDescriptor) -> (rows: Int, columns: Int)? {
    var rows: UInt16 = 0, columns: UInt16 = 0
    guard CLinux_terminal_size(fd.rawValue, &rows, &columns) == 0, rows > 0, columns > 0 else { return nil }
    return (Int(rows), Int(columns))
}
