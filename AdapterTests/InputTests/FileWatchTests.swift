import Foundation
import SystemIO
import Testing

/// The session agent's watch on its user's file: each way a file is made, edited,
/// replaced or removed is a change (and so is a directory on its path made, after which
/// the watch moves there); a file beside it is not.
@Suite struct FileWatchTests {
    /// Whether the watch says the file changed, after the kernel queued its events.
    func changed(_ watch: FileWatch) throws -> Bool {
        _ = try Syscall.waitReadable(watch.fd, timeoutMs: 200)
        let changed = watch.changed()
        if changed { watch.rewatch() }
        return changed
    }

    @Test func madeEditedReplacedRemovedAndLinked() throws {
        let home = try TemporaryDirectory()
        let config = home.path + "/config"
        let file = config + "/gestured/gestured.toml"
        let watch = try FileWatch(path: file)
        let manager = FileManager.default

        try manager.createDirectory(atPath: config, withIntermediateDirectories: false)
        #expect(try changed(watch), "a directory on its path made: the watch moves down")
        try manager.createDirectory(atPath: config + "/gestured", withIntermediateDirectories: false)
        #expect(try changed(watch), "its directory made")
        try "a".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(try changed(watch), "made and written")
        try "b".write(toFile: config + "/gestured/other.toml", atomically: false, encoding: .utf8)
        #expect(try !changed(watch), "a file beside it")
        try "c".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try changed(watch), "replaced by a rename")

        // A link into the user's dotfiles; then that file edited in place, and replaced.
        try manager.createDirectory(atPath: home.path + "/dotfiles", withIntermediateDirectories: false)
        try "d".write(toFile: home.path + "/dotfiles/gestured.toml", atomically: false, encoding: .utf8)
        try manager.removeItem(atPath: file)
        try manager.createSymbolicLink(atPath: file, withDestinationPath: home.path + "/dotfiles/gestured.toml")
        #expect(try changed(watch), "made a link")
        let handle = try #require(FileHandle(forWritingAtPath: home.path + "/dotfiles/gestured.toml"))
        handle.write(Data("e".utf8))
        try handle.close()
        #expect(try changed(watch), "the linked file edited")
        try "f".write(toFile: home.path + "/dotfiles/gestured.toml", atomically: true, encoding: .utf8)
        #expect(try changed(watch), "the linked file replaced")
        try "g".write(toFile: home.path + "/dotfiles/notes", atomically: false, encoding: .utf8)
        #expect(try !changed(watch), "a file beside the linked one")

        try manager.removeItem(atPath: config + "/gestured")
        #expect(try changed(watch), "removed with its directory")
        try manager.createDirectory(atPath: config + "/gestured", withIntermediateDirectories: false)
        try "h".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(try changed(watch), "made again")
    }
}
