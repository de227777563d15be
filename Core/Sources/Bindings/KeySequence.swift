/// `keys`: chords pressed one after the other, each pressed in order and released in
/// reverse (`ctrl+alt+Right`; `["ctrl+c", "ctrl+v"]`), with what the configuration wrote.
public struct KeySequence: Codable, Equatable, Sendable {
    /// As written, one per chord: what `replay --actions` and the log show.
    public var written: [String]
    public var chords: [[UInt16]]

    /// What one gesture may press: the loop writes it all in one wake-up.
    public static let mostChords = 32
    public static let mostKeysInAChord = 8

    public init(written: [String], chords: [[UInt16]]) {
        self.written = written
        self.chords = chords
    }

    public var text: String { written.joined(separator: ", ") }
}
