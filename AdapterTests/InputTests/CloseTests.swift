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
        // Closed already: the second close fails, and says so.
        #expect(throws: Errno.badFileDescriptor) { try Syscall.close(fd) }
    }
}
