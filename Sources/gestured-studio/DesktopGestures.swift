import ConfigDocument
import SystemIO

/// What the desktop the studio runs on does with touches itself, each as the gesture that
/// takes it over (docs/guide.md's table: from each desktop's source, the switching ones
/// run in the VM's KWin 6 and GNOME Shell 48 sessions). Taken over, gestured's gesture
/// fires and the desktop's does not, where the machine isolates the panel.
enum DesktopGestures {
    struct Own {
        /// What the desktop does, in its words.
        let what: String
        /// A name for the gesture that takes it over.
        let name: String
        let settings: [(key: String, value: ConfigValue)]
    }

    private static func swipe(_ what: String, _ name: String, fingers: Int, _ direction: String) -> Own {
        Own(what: what, name: name, settings: [("type", .string("swipe")), ("fingers", .integer(fingers)), ("direction", .string(direction))])
    }

    /// The desktop named by $XDG_CURRENT_DESKTOP (its last part that is known), and its
    /// own touch gestures; nil for a desktop not known.
    static func current() -> (desktop: String, own: [Own])? {
        let names = (Environment.value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").map { $0.lowercased() }
        if names.contains("kde") {
            return ("KDE Plasma", [
                swipe("Three fingers left: the next desktop", "desktop-next", fingers: 3, "left"),
                swipe("Three fingers right: the desktop before", "desktop-before", fingers: 3, "right"),
                swipe("Three fingers up: the overview", "overview", fingers: 3, "up"),
            ])
        }
        if names.contains("gnome") {
            return ("GNOME", [
                swipe("Three fingers left: the next workspace", "workspace-next", fingers: 3, "left"),
                swipe("Three fingers right: the workspace before", "workspace-before", fingers: 3, "right"),
                swipe("Three fingers up: the overview, then the app grid", "overview", fingers: 3, "up"),
                Own(what: "One finger up from the bottom edge: the on-screen keyboard", name: "keyboard-edge",
                    settings: [("type", .string("edge-swipe")), ("edge", .string("bottom"))]),
            ])
        }
        if let known = names.first(where: { ["sway", "labwc", "wayfire", "hyprland", "wlroots"].contains($0) }) {
            return (known, [])
        }
        return nil
    }
}
