#if canImport(Glibc)
import Glibc
#endif

/// The program's own read-only pages, once it has started: the code and constants that
/// parsing the command line, checking the configuration and connecting ran are mapped
/// and counted as resident for the rest of the daemon's life, with every page the kernel
/// mapped beside each one it faulted (64 KB at a time). Dropping those mappings leaves
/// the pages in the page cache, where the kernel may reclaim them; what the daemon runs
/// next (its loop, a gesture) maps its pages again from there, as a minor fault the
/// first time each is used. As the kernel frees its own `__init` code after booting.
public enum ProgramText {
    /// Drops the mappings of the program file's code (r-x) and of the read-only segment
    /// before it (r--, never written: the RELRO data after it is a private copy, kept).
    /// Nothing on any failure: it is only memory.
    public static func dropMappings() {
        guard let program = try? Syscall.readLink("/proc/self/exe"),
              let maps = try? Files.read("/proc/self/maps", atMost: 1 << 20) else { return }
        var ranges: [(start: UInt, end: UInt)] = []
        var sawCode = false
        for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5...].joined(separator: " ") == program else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), start < end else { continue }
            switch fields[1] {
            case "r-xp":
                ranges.append((start, end))
                sawCode = true
            case "r--p" where !sawCode:
                ranges.append((start, end))
            default:
                break
            }
        }
        for range in ranges {
            guard let address = UnsafeMutableRawPointer(bitPattern: range.start) else { continue }
            _ = try? Syscall.call { madvise(address, Int(range.end - range.start), MADV_DONTNEED) }
        }
    }
}
