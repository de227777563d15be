import SystemIO
import SystemPackage
import Testing

/// A written file's close says when it failed, instead of dropping it.
@Suite struct CloseTests {
    @Test func closingAWrittenFileReportsItsError() throws {
        let directory = try TemporaryDirectory()
        let fd = try Files.create(directory.path + "/out", permissions: .ownerReadWrite)
        try Files.write("data", to: fd)
        try Syscall.close(fd)
        // A descriptor that is not open fails, and says so. Not `fd` again: the suites run
        // in parallel, and another test's open may have been given its number meanwhile.
        #expect(throws: Errno.badFileDescriptor) { try Syscall.close(FileDescriptor(rawValue: 1_000_000)) }
    }
}
