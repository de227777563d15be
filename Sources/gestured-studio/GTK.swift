import CGtk

/// GTK 4 as the studio uses it: a widget is a `GtkWidget` pointer, cast to the type a
/// function takes (GTK's casting macros are not imported), signals call Swift closures.
typealias Widget = UnsafeMutablePointer<GtkWidget>

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The widget as a GTK type whose struct is public (GtkWindow, GtkBox, …).
    func `as`<T>(_: T.Type) -> UnsafeMutablePointer<T> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: T.self) }
    /// The widget as a GTK type whose struct is private (GtkEditable, GtkDropDown, …).
    var opaque: OpaquePointer { OpaquePointer(self) }

    /// The name a screen reader says, and what AT-SPI finds it by.
    func named(_ label: String) -> Widget {
        gestured_accessible_label(self, label)
        return self
    }

    /// At least `millimetres` square, for a finger (at 96 dots an inch).
    func fingerSized(_ millimetres: Double = 9) -> Widget {
        let pixels = Int32((millimetres / 25.4 * 96).rounded(.up))
        gtk_widget_set_size_request(self, pixels, pixels)
        return self
    }

    /// A box emptied, to be filled again.
    func removeAllChildren() {
        while let child = gtk_widget_get_first_child(self) { gtk_box_remove(self.as(GtkBox.self), child) }
    }
}

/// A Swift closure behind a GLib signal, held by the signal's handler and let go of
/// with it (the widget destroyed when the list is made again).
final class SignalHandler: Sendable {
    let action: @MainActor @Sendable () -> Void
    init(_ action: @escaping @MainActor @Sendable () -> Void) { self.action = action }

    private static let call: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        guard let data else { return }
        // GTK calls on its main thread, the one the studio runs on.
        let handler = Unmanaged<SignalHandler>.fromOpaque(data).takeUnretainedValue()
        MainActor.assumeIsolated { handler.action() }
    }

    private static let release: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
        guard let data else { return }
        Unmanaged<SignalHandler>.fromOpaque(data).release()
    }

    /// `signal` (one whose handler takes only the instance, like "clicked" or "activate")
    /// on `instance` runs `action`.
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ action: @escaping @MainActor @Sendable () -> Void) {
        gestured_connect(instance, signal, unsafeBitCast(call, to: GCallback.self), Unmanaged.passRetained(SignalHandler(action)).toOpaque(),
                         release)
    }
}

/// Widgets the studio makes, each ready to be placed.
enum Make {
    static func box(vertical: Bool, spacing: Int32 = 6) -> Widget {
        gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing)
    }

    static func label(_ text: String, wrap: Bool = false) -> Widget {
        let label = gtk_label_new(text)!
        gtk_label_set_xalign(label.opaque, 0)
        if wrap { gtk_label_set_wrap(label.opaque, 1) }
        return label
    }

    static func button(_ text: String, _ action: @escaping @MainActor @Sendable () -> Void) -> Widget {
        let button = gtk_button_new_with_label(text)!.fingerSized()
        SignalHandler.connect(button, "clicked", action)
        return button
    }

    /// An empty entry, a finger's height (its text is set where it is shown).
    static func entry(named name: String) -> Widget {
        let entry = gtk_entry_new()!.named(name)
        gtk_widget_set_size_request(entry, -1, 34)
        return entry
    }

    static func row(_ children: Widget...) -> Widget {
        let row = box(vertical: false)
        for child in children { row.append(child) }
        return row
    }
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// An entry's text.
    var text: String { String(cString: gtk_editable_get_text(opaque)) }

    func append(_ child: Widget) { gtk_box_append(self.as(GtkBox.self), child) }
}

/// One of a few: toggle buttons, one down at a time, wrapped to the width there is,
/// each a finger's size and named "KEY CHOICE" for a screen reader.
@MainActor
final class Choice {
    let widget: Widget = {
        let flow = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(flow.opaque, GTK_SELECTION_NONE)
        gtk_flow_box_set_max_children_per_line(flow.opaque, 6)
        gtk_widget_set_hexpand(flow, 1)
        return flow
    }()
    private var buttons: [(choice: String, button: Widget)] = []

    init(_ key: String, _ choices: [String]) {
        var first: Widget?
        for choice in choices {
            let button = gtk_toggle_button_new_with_label(choice)!.fingerSized().named("\(key) \(choice)")
            gtk_toggle_button_set_group(button.as(GtkToggleButton.self), first?.as(GtkToggleButton.self))
            first = first ?? button
            gtk_flow_box_append(widget.opaque, button)
            buttons.append((choice, button))
        }
    }

    var selected: String? { buttons.first { gtk_toggle_button_get_active($0.button.as(GtkToggleButton.self)) != 0 }?.choice }

    /// `choice` down, or none (nil, or one not offered).
    func select(_ choice: String?) {
        for (offered, button) in buttons { gtk_toggle_button_set_active(button.as(GtkToggleButton.self), offered == choice ? 1 : 0) }
    }
}
