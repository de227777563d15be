import Config
import Pipeline
import SystemIO
import TouchCore

extension Timeline {
    /// A timeline is a short script: 1 MB is far more than 10,000 lines.
    public static let maximumFileSize = 1 << 20

    public static func load(_ path: String) throws(FileError) -> Timeline {
        let bytes: [UInt8]
        do { bytes = try Files.read(path, atMost: maximumFileSize) } catch {
            throw FileError(path: path, message: "\(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FileError(path: path, message: "not UTF-8 text")
        }
        return try Timeline(parsing: text, path: path)
    }
}

extension SeatScript {
    /// What a whole seat's replay plays: the recordings (see `Recording.load`) and, from
    /// a timeline file, its lines, with the configurations its reloads name read
    /// (relative to its folder; each a located error when it has any).
    public static func load(_ paths: [String], device: String?, timeline timelinePath: String?) throws -> SeatScript {
        var recordings: [Recording] = []
        for path in paths { recordings.append(try Recording.load(path, device: device)) }
        guard let timelinePath else { return SeatScript(recordings: recordings) }
        let timeline = try Timeline.load(timelinePath)
        let folder = timelinePath.lastIndex(of: "/").map { String(timelinePath[...$0]) } ?? ""
        var configurations: [String: Configuration] = [:]
        var pushes: [String: UserPush] = [:]
        for line in timeline.lines {
            switch line.entry {
            case .reload(let path) where configurations[path] == nil:
                configurations[path] = try loadConfiguration(path.hasPrefix("/") ? path : folder + path)
            case .push(_, _, let path) where pushes[path] == nil:
                let file = path.hasPrefix("/") ? path : folder + path
                pushes[path] = try ConfigParse.userPush(try readConfiguration(file), file: path).push
            default:
                break
            }
        }
        return SeatScript(recordings: recordings, inputs: try SeatScript.inputs(of: timeline, recordings: recordings, configurations: configurations,
                                                                               pushes: pushes))
    }
}
