#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// The program's own read-only pages, once it has started: the code and constants that
/// parsing the command line, checking the configuration and connecting ran are mapped
/// and counted as resident for the rest of the daemon's life, with every page the kernel
/// mapped beside each one it faulted (64 KB at a time). Dropping those mappings leaves
/// the pages in the page cache, where the kernel may reclaim them; what the daemon runs
/// next (its loop, a gesture) maps its pages again from there, as a minor fault the
/// first time each is used. As the kernel frees its own `__init` code after booting.
public enum ProgramText {
    /// Drops the mappings of the program's read-only segments up to and including its
    /// code: its program headers, as the kernel loaded them (the auxiliary vector), name
    /// them; the first writable segment and all after it (RELRO data, a private copy, and
    /// the data) are kept. Nothing on any failure: it is only memory.
    public static func dropMappings() {
        guard let first = UnsafePointer<Elf64_Phdr>(bitPattern: UInt(getauxval(UInt(AT_PHDR)))) else { return }
        // A copy: the headers lie in the first segment, which is dropped.
        let headers = Array(UnsafeBufferPointer(start: first, count: Int(getauxval(UInt(AT_PHNUM)))))
        // Where the program was loaded: the program headers' own address less the one they name.
        guard let own = headers.first(where: { $0.p_type == PT_PHDR }) else { return }
        let bias = UInt(bitPattern: Int(bitPattern: first)) &- UInt(own.p_vaddr)
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0, page & (page - 1) == 0 else { return }
        for segment in headers where segment.p_type == PT_LOAD {
            guard segment.p_flags & UInt32(PF_W) == 0 else { break }
            let start = (bias &+ UInt(segment.p_vaddr)) & ~(page - 1)
            let (end, overflow) = (bias &+ UInt(segment.p_vaddr)).addingReportingOverflow(UInt(segment.p_memsz) &+ page &- 1)
            guard !overflow, let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = try? Syscall.call { madvise(address, Int(bitPattern: (end & ~(page - 1)) &- start), MADV_DONTNEED) }
        }
    }
}
