#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// The working directory (getcwd(3)).
public func currentDirectory() throws(Errno) -> String {
    guard let directory = getcwd(nil, 0) else { throw Errno(rawValue: errno) }
    defer { free(directory) }
    return String(cString: directory)
}

/// The process's environment, as `NAME=VALUE` strings.
public enum Environment {
    public static var current: [String] {
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            result.append(String(cString: pointer))
            entry += 1
        }
        return result
    }

    public static func has(_ name: String) -> Bool { getenv(name) != nil }

    public static func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
