import TouchCore

/// One state change of one recognizer, with why: the answer to "why didn't it fire?".
public struct Transition: Equatable, Sendable {
    public var time: Timestamp
    public var gesture: String
    public var from: RecognizerState
    public var to: RecognizerState
    public var reason: String
}
