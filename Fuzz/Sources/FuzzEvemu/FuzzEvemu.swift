import FuzzSupport
import TouchCore

/// The evemu reader on any bytes: a located error or a recording, never a crash.
@_cdecl("FuzzEvemu_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        do throws(EvemuError) {
            _ = try Evemu.parse(bytes(data, size))
        } catch {
            if error.line < 1 { violated("an error without a line: \(error)") }
        }
        return 0
    }
}
