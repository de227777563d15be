import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Collects output lines and writes them in large blocks: a replay of thousands of files
/// prints hundreds of thousands of lines.
public final class OutputBuffer {
    private let fd: FileDescriptor
    private var bytes: [UInt8] = []

    public init(fd: FileDescriptor = .standardOutput) {
        self.fd = fd
        bytes.reserveCapacity(1 << 16)
    }

    public func write(bytes: [UInt8]) {
        self.bytes += bytes
        if self.bytes.count >= 1 << 16 { flush() }
    }

    public func write(line: String) {
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= 1 << 16 { flush() }
    }

    /// Writes what is collected. A closed pipe (`gestured replay | head`) or a full disk
    /// loses the output, which nobody can then read: the rest is dropped, not retried.
    public func flush() {
        guard !bytes.isEmpty else { return }
        _ = try? bytes.withUnsafeBytes { try fd.writeAll($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
