import Config
import TouchCore

/// A call of the control interface: the bus's, or a replay timeline's line.
public enum ControlRequest: Sendable, Equatable {
    case setMode(String)
    case pause(seconds: Double)
    case resume
    /// The touch lock on or off.
    case lockTouch(Bool)
    /// The display's rotation, for panels whose rotation is auto or external.
    case rotate(degrees: UInt32)
    /// One panel's (by node), until the display's changes again.
    case rotatePanel(node: String, degrees: UInt32)
}

/// Why a request is refused, with what to do; the seat is left as it was.
public enum ControlRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownMode(String, known: [String])
    /// At least 1 s, at most `Configuration.longestControlSeconds`.
    case pauseOutOfRange(Double)
    case rotationOutOfRange(UInt32)
    case unknownDevice(String)
    /// Its `[[device]]` rule mounts it at a fixed rotation.
    case fixedRotation(device: String, QuarterTurn)
    /// The caller does not act for the session in front of the seat.
    case notTheActiveSession
    /// The session's agent hands over its configuration faster than the seat checks them.
    case tooManyPushes
    /// A user's configuration larger than any is (its text, or the parser's document;
    /// `bytes` nil: not read past the bound).
    case configurationTooLarge(what: String, bytes: Int?, most: Int)
    /// Its errors, each at its line.
    case configurationRefused(String)

    public var description: String {
        switch self {
        case .unknownMode(let mode, let known):
            "no mode \"\(mode)\"; the configuration's modes are \(known.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .pauseOutOfRange(let seconds):
            "a pause of \(fixed(seconds, decimals: 0)) s; expected from 1 to \(fixed(Configuration.longestControlSeconds, decimals: 0)) seconds"
        case .rotationOutOfRange(let degrees):
            "a rotation of \(degrees)°; expected 0, 90, 180 or 270 (clockwise)"
        case .unknownDevice(let node):
            "no touchscreen \(node)"
        case .fixedRotation(let device, let turn):
            "\(device) is mounted at \(turn) by the configuration; give its [[device]] rule rotation = \"external\" to set it on the bus"
        case .notTheActiveSession:
            "only the user of seat0's active session, from that session or their own services, may hand over a configuration or say the application in front"
        case .tooManyPushes:
            "a configuration a second at most (4 at once); this one is not taken, the one in force stays"
        case .configurationTooLarge(let what, let bytes, let most):
            "its \(what) is \(bytes.map { "\($0) bytes" } ?? "longer"), more than a user's configuration may be (\(most)); the one in force stays"
        case .configurationRefused(let errors):
            "the one in force stays:\n\(errors)"
        }
    }
}
