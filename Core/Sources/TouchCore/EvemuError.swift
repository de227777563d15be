/// What is wrong with a recording, and on which line (1-based).
public struct EvemuError: Error, Equatable, Sendable {
    public var line: Int
    public var message: String
}
