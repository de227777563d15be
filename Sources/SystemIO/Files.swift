import SystemPackage

/// Whole-file reads and buffered writes over swift-system's file descriptors.
public enum Files {
    /// The file's bytes, or the system's reason it cannot be read.
    public static func read(_ path: String) throws(Errno) -> [UInt8] {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) } catch { throw Self.errno(error) }
        defer { Syscall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            do { n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0, retryOnInterrupt: true) } } catch { throw Self.errno(error) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    public static func exists(_ path: String) -> Bool {
        guard let fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) else { return false }
        Syscall.close(fd)
        return true
    }

    /// A new file, or one emptied, for writing (mode 0644 before the umask).
    public static func create(_ path: String) throws(Errno) -> FileDescriptor {
        do {
            return try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                                           permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch { throw Self.errno(error) }
    }

    /// The file made anew with `text` in it.
    public static func write(_ text: String, toFile path: String) throws(Errno) {
        let fd = try create(path)
        defer { Syscall.close(fd) }
        try write(text, to: fd)
    }

    /// Writes all of `text`, or says why it could not (a full disk).
    public static func write(_ text: String, to fd: FileDescriptor) throws(Errno) {
        do { _ = try fd.writeAll(text.utf8) } catch { throw Self.errno(error) }
    }

    private static func errno(_ error: any Error) -> Errno { error as? Errno ?? .ioError }
}

/// Collects output lines and writes them in large blocks: a replay of thousands of files
/// prints hundreds of thousands of lines.
public final class OutputBuffer {
    private let fd: FileDescriptor
    private var bytes: [UInt8] = []

    public init(fd: FileDescriptor = .standardOutput) {
        self.fd = fd
        bytes.reserveCapacity(1 << 16)
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
