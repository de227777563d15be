#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import SystemPackage

/// Which uinput devices are gestured's own twins, and whose: a twin's phys and name are
/// what any holder of /dev/uinput may give its own device, so they prove nothing. The
/// daemon writes `/run/gestured/twins/<twin's event node>`, holding its panel's event
/// node, right after making the twin, and erases it before the twin goes; the directory
/// is the service's runtime directory (`RuntimeDirectory=gestured`: the daemon's user's,
/// which no one else may write). `gestured twin-identity`, which udev runs as root for a
/// device whose phys says twin, gives an identity only to a device so recorded, by a
/// record that is a regular file of root or the daemon's user, in directories no one else
/// may write; it waits up to a second for the record, which is written just after the
/// kernel announces the twin.
public enum TwinRecords {
    public static let directory = "/run/gestured/twins"
    static let runtimeDirectory = "/run/gestured"

    /// Makes the directory (once, at the start; /run/gestured too when the daemon runs as
    /// root outside the service), emptied of a previous run's records; the error when the
    /// daemon may not (not root and no runtime directory): twins then take no identity.
    public static func prepare() throws(Errno) {
        for path in [runtimeDirectory, directory] {
            do { try Syscall.call { mkdir(path, 0o755) } } catch .fileExists {} catch { throw error }
        }
        for name in (try? Files.names(in: directory, atMost: 4096)) ?? [] where isEventName(name) {
            _ = unlink("\(directory)/\(name)")
        }
    }

    /// Records that the twin at `twinNode` is gestured's, for the panel at `panelNode`.
    public static func record(twin twinNode: String, panel panelNode: String) throws(Files.CreateError) {
        guard let twin = eventName(twinNode), let panel = eventName(panelNode) else { throw .system(.invalidArgument) }
        try Files.write(panel + "\n", toFile: "\(directory)/\(twin)", permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }

    /// The record goes, before its twin does.
    public static func erase(twin twinNode: String) {
        guard let twin = eventName(twinNode) else { return }
        _ = unlink("\(directory)/\(twin)")
    }

    /// The panel (`event5`) whose twin gestured recorded `twin` (`event12`) to be; nil
    /// when no trusted record says so within `waiting` microseconds. `daemonUser`: the
    /// uid besides root whose records count.
    public static func panel(ofTwin twin: String, daemonUser: uid_t?, waiting: Int64 = 1_000_000) -> String? {
        guard isEventName(twin) else { return nil }
        let end = monotonicMicroseconds() + waiting
        while true {
            if let panel = read(twin, daemonUser: daemonUser) { return panel }
            guard monotonicMicroseconds() < end else { return nil }
            usleep(10_000)
        }
    }

    private static func read(_ twin: String, daemonUser: uid_t?) -> String? {
        func trusted(_ info: stat, kind: mode_t) -> Bool {
            (info.st_mode & S_IFMT) == kind && (info.st_uid == 0 || info.st_uid == daemonUser) && info.st_mode & 0o022 == 0
        }
        var info = stat()
        for path in [runtimeDirectory, directory] {
            guard lstat(path, &info) == 0, trusted(info, kind: S_IFDIR) else { return nil }
        }
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(FilePath("\(directory)/\(twin)"), .readOnly, options: [.noFollow, .nonBlocking, .closeOnExec]) } catch {
            return nil
        }
        defer { Syscall.release(fd) }
        guard fstat(fd.rawValue, &info) == 0, trusted(info, kind: S_IFREG),
              let bytes = try? Files.read(fd, atMost: 64) else { return nil }
        let panel = String(decoding: bytes, as: UTF8.self).trimmingSuffix("\n")
        return isEventName(panel) ? panel : nil
    }

    /// `event12` of `/dev/input/event12`; nil for another name.
    static func eventName(_ node: String) -> String? {
        let name = String(node.split(separator: "/").last ?? "")
        return isEventName(name) ? name : nil
    }

    static func isEventName(_ name: String) -> Bool {
        name.hasPrefix("event") && name.count > 5 && name.count <= 16 && name.dropFirst(5).allSatisfy { $0.isASCII && $0.isNumber }
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
