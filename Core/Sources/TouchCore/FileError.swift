/// A problem with an input file, printed as `FILE:LINE: error: what is wrong`.
public struct FileError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var line: Int?
    public var message: String

    public init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): error: \(message)"
    }
}
