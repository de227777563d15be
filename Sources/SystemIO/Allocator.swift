import CLinux

/// The C allocator's one setting gestured makes. glibc raises its mmap threshold to the
/// size of each large block freed (up to 32 MiB): once a bus peer's 30 MB message has been
/// freed, the next ones below that size are carved from the heap, which keeps them (in
/// a flood of refused 30 MB hand-overs, the service stayed at 75 MB resident, from 14).
/// A fixed threshold (glibc's default, 128 KiB) maps every large block on its own and
/// unmaps it when freed: what a peer sends leaves the process with its message.
public enum Allocator {
    public static func unmapLargeBlocksWhenFreed() {
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    }
}
