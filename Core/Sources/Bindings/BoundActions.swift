/// What a binding does when its gesture fires, or one of its steps when crossed: any of
/// a command (or `exec`'s exact words), a D-Bus signal, a key sequence and a click; for a
/// gesture (not a step), a mode switch, a pause and the touch lock.
public struct BoundActions: Codable, Equatable, Sendable {
    /// `command` as written (see `CommandForm` for how it starts).
    public var command: String?
    public var exec: [String]?
    public var signal: Bool
    public var keys: KeySequence?
    public var click: Click?
    public var mode: ModeSwitch?
    public var pauseSeconds: Double?
    public var touchLock: TouchLockChange?

    public init(command: String? = nil, exec: [String]? = nil, signal: Bool = false, keys: KeySequence? = nil,
                click: Click? = nil) {
        self.command = command
        self.exec = exec
        self.signal = signal
        self.keys = keys
        self.click = click
    }

    /// The command to start, if any.
    public var commandForm: CommandForm? {
        if let exec { return .direct(exec) }
        return command.map(CommandForm.init)
    }

    public var isEmpty: Bool {
        command == nil && exec == nil && !signal && keys == nil && click == nil && mode == nil && pauseSeconds == nil && touchLock == nil
    }
    /// Whether performing them needs gestured's virtual devices (keys, clicks).
    public var needsVirtualDevices: Bool { keys != nil || click != nil }
}
