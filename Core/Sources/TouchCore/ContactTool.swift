/// What touches a panel: fingers, or a stylus (a touchscreen's pen node, BTN_TOOL_PEN),
/// whose tip down is one contact and whose hovering is none.
public enum ContactTool: String, CaseIterable, Codable, Sendable {
    case finger
    case pen
}
