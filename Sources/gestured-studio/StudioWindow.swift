import CGtk
import Bindings
import Config
import ConfigDocument
import ConfigEdit
import ConfigSyntax
import Gestures
import TouchCore

/// The studio's window: the user's gestures, each with its picture, Edit and Remove;
/// the machine's below them, shown only; the gesture being made or edited, saved only
/// once `gestured check --user` would take the file, each error under its field; and
/// below, the live inspector, whose touch sequences also teach a shape or pick an app.
@MainActor
final class StudioWindow {
    private var files: StudioFiles
    private let inspector: Inspector
    /// What the next touch sequences on the panel are taken for, beside being shown.
    private enum Taking {
        case nothing
        case shape(Teacher)
        case app
    }
    private var taking = Taking.nothing {
        didSet {
            if case .nothing = taking { inspector.holdsBack = false } else { inspector.holdsBack = true }
        }
    }
    /// The examples of the shape taught, saved with the gesture being made.
    private var learned: [StrokeTemplate] = []
    private let window: Widget
    private let list = Make.box(vertical: true)
    private let editor = Make.box(vertical: true)
    private let status = Make.label("", wrap: true)
    private let heading = Make.label("")
    /// The user's gesture in the editor (its place among the file's), nil for a new one.
    private var editing: Int?
    /// The editor's entries and choices, by setting.
    private var fields: [String: Widget] = [:]
    private var choices: [String: Choice] = [:]
    private var fieldErrors: [String: Widget] = [:]

    /// The settings the editor has a field for, in its order; the others are reached
    /// by name with "Another setting".
    static let fieldKeys = ["name", "type", "fingers", "direction", "edge", "command", "keys", "click", "apps"]
    static let types = GestureType.allCases.map(\.rawValue)
    static let fingerCounts = (1...5).map(String.init)
    static let directions = Direction.allCases.map(\.rawValue)
    static let edges = ["top", "bottom", "left", "right"]

    init(application: UnsafeMutablePointer<GtkApplication>, files: StudioFiles, trace: Bool) {
        self.files = files
        inspector = Inspector(trace: trace)
        window = gtk_application_window_new(application)!.named("gestured studio")
        gtk_window_set_title(window.as(GtkWindow.self), "gestured studio")
        gtk_window_set_default_size(window.as(GtkWindow.self), 1000, 860)
        let columns = Make.box(vertical: false, spacing: 18)
        let left = Make.box(vertical: true)
        left.append(Make.row(Make.label("Your gestures (\(files.userPath))", wrap: true),
                             Make.button("Add gesture") { [unowned self] in open(nil) }.named("Add gesture"),
                             Make.button("Teach a shape") { [unowned self] in teach() }.named("Teach a shape")))
        let scrolled = gtk_scrolled_window_new()!
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_size_request(scrolled, 420, -1)
        gtk_scrolled_window_set_child(scrolled.opaque, list)
        left.append(scrolled)
        columns.append(left)
        let editorScrolled = gtk_scrolled_window_new()!
        gtk_widget_set_hexpand(editorScrolled, 1)
        gtk_scrolled_window_set_child(editorScrolled.opaque, editor)
        columns.append(editorScrolled)
        gtk_widget_set_vexpand(columns, 1)
        let page = Make.box(vertical: true, spacing: 12)
        gtk_widget_set_margin_start(page, 12)
        gtk_widget_set_margin_end(page, 12)
        gtk_widget_set_margin_top(page, 12)
        page.append(columns)
        page.append(Make.row(status).named("status"))
        page.append(inspector.widget)
        inspector.onSequence = { [unowned self] path, app in took(path, app) }
        gtk_window_set_child(window.as(GtkWindow.self), page)
        makeEditor()
        showList()
        open(nil)
        gtk_window_present(window.as(GtkWindow.self))
    }

    // MARK: The list

    private func showList() {
        list.removeAllChildren()
        let sketches = files.userGestures.map(GestureSketch.init)
        if sketches.isEmpty { list.append(Make.label("None yet: add one.")) }
        for (index, sketch) in sketches.enumerated() {
            let row = Make.row(GesturePicture.make(sketch), Self.caption(sketch),
                               Make.button("Edit") { [unowned self] in open(index) }.named("Edit \(sketch.name)"),
                               Make.button("Remove") { [unowned self] in remove(index) }.named("Remove \(sketch.name)"))
            list.append(row.named("gesture \(sketch.name)"))
        }
        list.append(Make.label("The machine's gestures (yours take their place where both take the same touches):", wrap: true))
        guard let machine = files.machineGestures else {
            return list.append(Make.label("(not readable here)"))
        }
        for sketch in machine {
            list.append(Make.row(GesturePicture.make(sketch), Self.caption(sketch)).named("machine's gesture \(sketch.name)"))
        }
        showDesktopGestures()
    }

    /// The desktop's own touch gestures, each with Take over.
    private func showDesktopGestures() {
        guard let (desktop, own) = DesktopGestures.current() else { return }
        list.append(Make.label("\(desktop)'s own touch gestures" + (own.isEmpty ? ": none (it leaves touches to applications)." : ":"), wrap: true))
        for gesture in own {
            list.append(Make.row(Make.label(gesture.what, wrap: true),
                                 Make.button("Take over") { [unowned self] in takeOver(gesture, of: desktop) }.named("Take over \(gesture.what)")))
        }
    }

    /// The editor opened on a new gesture with the same touches as the desktop's.
    private func takeOver(_ gesture: DesktopGestures.Own, of desktop: String) {
        open(nil)
        gtk_editable_set_text(fields["name"]!.opaque, gesture.name)
        for (key, value) in gesture.settings { choices[key]?.select(value.string ?? value.int.map(String.init)) }
        say("This takes over \(desktop)'s \"\(gesture.what)\": give it what it does (a command, keys) and Save. "
            + (files.machineIsolates ? "The machine isolates the panel: once saved, the desktop no longer sees these touches."
               : "The desktop still sees these touches unless the machine isolates the panel ([daemon] isolate = true in /etc/gestured/gestured.toml, an administrator's)."))
    }

    /// A gesture's name, and what draws it and what it does, beside its picture.
    private static func caption(_ sketch: GestureSketch) -> Widget { Make.label("\(sketch.name)\n\(sketch.summary)", wrap: true) }

    private func remove(_ index: Int) {
        var text = files.user
        do { try text.removeGesture(index) } catch { return say("\(error)") }
        save(text, done: "removed")
    }

    // MARK: The editor

    /// The editor's fields, made once (a screen reader keeps its place in them), each
    /// with the line its error is said on.
    private func makeEditor() {
        editor.append(Make.row(heading, Make.button("Save") { [unowned self] in saveEditor() }.named("Save"),
                               Make.button("Duplicate") { [unowned self] in duplicate() }.named("Duplicate")))
        func field(_ key: String, _ widget: Widget) {
            let error = Make.label("", wrap: true)
            fieldErrors[key] = error
            editor.append(Make.row(Make.label(key), widget))
            editor.append(Make.row(error).named("\(key) error"))
        }
        for key in Self.fieldKeys {
            if let among = Self.choicesOf[key] {
                choices[key] = Choice(key, among)
                field(key, choices[key]!.widget)
            } else if key == "apps" {
                fields[key] = Make.entry(named: key)
                field(key, Make.row(fields[key]!, Make.button("Pick by touching its window") { [unowned self] in pickApp() }
                    .named("Pick app by touch")))
            } else {
                fields[key] = Make.entry(named: key)
                field(key, fields[key]!)
            }
        }
        editor.append(Make.label("Another setting (see gestured.toml(5)), and its value as TOML writes it:", wrap: true))
        fields["(other)"] = Make.entry(named: "another setting")
        fields["(value)"] = Make.entry(named: "its value")
        editor.append(Make.row(fields["(other)"]!, fields["(value)"]!))
    }

    static let choicesOf = ["type": types, "fingers": fingerCounts, "direction": directions, "edge": edges,
                            "click": MouseButton.allCases.map(\.rawValue)]

    /// The editor showing the user's gesture `index`, or empty for a new one.
    private func open(_ index: Int?) {
        if files.changedOnDisk() { showList() }
        learned = []
        let index = index.flatMap { files.userGestures.indices.contains($0) ? $0 : nil }
        editing = index
        let gesture = index.map { files.userGestures[$0] } ?? ConfigTable()
        gtk_label_set_text(heading.opaque, index == nil ? "A new gesture" : "Editing \(gesture["name"]?.string ?? "")")
        fieldErrors.values.forEach { gtk_label_set_text($0.opaque, "") }
        for key in ["name", "command", "keys"] { gtk_editable_set_text(fields[key]!.opaque, gesture[key]?.string ?? "") }
        gtk_editable_set_text(fields["apps"]!.opaque, gesture["apps"]?.array?.compactMap(\.string).joined(separator: ", ") ?? "")
        for key in ["(other)", "(value)"] { gtk_editable_set_text(fields[key]!.opaque, "") }
        choices["type"]!.select(gesture["type"]?.string ?? "swipe")
        choices["fingers"]!.select(String(gesture["fingers"]?.int ?? 1))
        choices["direction"]!.select(gesture["direction"]?.string)
        choices["edge"]!.select(gesture["edge"]?.string)
        choices["click"]!.select(gesture["click"]?.string)
    }

    /// Every setting a [[gesture]] takes.
    static let gestureKeys = Set(Configuration.acceptedKeys["gesture"] ?? [])

    /// What the fields say, as settings: nil where a field is empty (the setting left out).
    private func fieldValues() -> [(key: String, value: ConfigValue?)] {
        func text(_ key: String) -> String? { fields[key].map(\.text).flatMap { $0.isEmpty ? nil : $0 } }
        func choice(_ key: String) -> String? { choices[key]?.selected }
        let fingers = Int(choice("fingers") ?? "1") ?? 1
        let apps = text("apps")?.split(separator: ",").map { ConfigValue.string($0.split(separator: " ").joined(separator: " ")) }
        return [("name", text("name").map(ConfigValue.string)), ("type", choice("type").map(ConfigValue.string)),
                ("fingers", fingers == 1 ? nil : .integer(fingers)),
                ("direction", choice("direction").map(ConfigValue.string)),
                ("edge", choice("edge").map(ConfigValue.string)),
                ("command", text("command").map(ConfigValue.string)), ("keys", text("keys").map(ConfigValue.string)),
                ("click", choice("click").map(ConfigValue.string)),
                ("apps", apps.map(ConfigValue.array))]
    }

    private func saveEditor() {
        var text = files.user
        var values = fieldValues()
        if let key = fields["(other)"]?.text, !key.isEmpty {
            guard Self.gestureKeys.contains(key), !Self.fieldKeys.contains(key) else {
                return say("\(key): not a setting of a gesture that has no field above (gestured.toml(5) lists them)")
            }
            let written = fields["(value)"]?.text ?? ""
            guard case .document(let parsed) = ParseOutcome(parsing: "value = \(written)\n"), let value = parsed["value"] else {
                return say("\(key): \"\(written)\" is not a TOML value (a string is written in quotes: \"like this\")")
            }
            values.append((key, value))
        }
        do {
            if let index = editing {
                let gesture = files.userGestures[index]
                for (key, value) in values where gesture[key] != value && !keepsWhatTheFileSays(key, value, gesture[key]) {
                    try text.set(key, value, inGesture: index)
                }
            } else {
                var settings = values.compactMap { key, value in value.map { (key, $0) } }
                if !learned.isEmpty, choices["type"]?.selected == GestureType.stroke.rawValue {
                    settings.append(("templates", .array(learned.map { .string($0.text) })))
                }
                try text.appendGesture(settings)
            }
        } catch {
            return say("\(error)")
        }
        let index = editing ?? text.gestureCount - 1
        if save(text, done: "saved", gesture: index) { open(index) }
    }

    private func duplicate() {
        guard let index = editing, let name = files.userGestures[index]["name"]?.string else { return say("save the gesture first") }
        var text = files.user
        do { try text.duplicateGesture(index, as: name + "-copy") } catch { return say("\(error)") }
        if save(text, done: "duplicated", gesture: text.gestureCount - 1) { open(text.gestureCount - 1) }
    }

    /// Whether a field left alone stands for what the file says: `fingers = 1` written
    /// out, or a value its buttons do not offer (fingers = 7, a direction a learned
    /// stroke's file spells otherwise), which no button shows and none may erase.
    private func keepsWhatTheFileSays(_ key: String, _ value: ConfigValue?, _ written: ConfigValue?) -> Bool {
        guard value == nil, let written, let among = Self.choicesOf[key] else { return false }
        if key == "fingers", written == .integer(1) { return true }
        let shown = written.string ?? written.int.map(String.init)
        return shown.map { !among.contains($0) } ?? true
    }

    /// The file saved, or each error said under its field (or below, for the file's).
    @discardableResult
    private func save(_ text: ConfigText, done: String, gesture index: Int? = nil) -> Bool {
        fieldErrors.values.forEach { gtk_label_set_text($0.opaque, "") }
        if files.changedOnDisk() {
            showList()
            say("not saved: another program changed \(files.userPath) meanwhile; it is shown as it is now, make the change again")
            return false
        }
        let problems = files.save(text)
        guard !problems.isEmpty else {
            say("\(done): \(files.userPath) (your session's agent takes it at once)")
            showList()
            return true
        }
        var elsewhere: [String] = []
        for problem in problems {
            let prefix = index.map { "gesture[\($0 + 1)]." }
            if let prefix, let path = problem.keyPath, path.hasPrefix(prefix), let label = fieldErrors[String(path.dropFirst(prefix.count))] {
                gtk_label_set_text(label.opaque, problem.message)
            } else {
                elsewhere.append(problem.description)
            }
        }
        say("not saved: " + (elsewhere.isEmpty ? "see the fields above" : elsewhere.joined(separator: "\n")))
        return false
    }

    private func say(_ text: String) { gtk_label_set_text(status.opaque, text) }

    // MARK: Taken from the panel

    /// The next strokes drawn on the panel teach a shape; the user's actions are held
    /// back meanwhile, so that drawing it fires nothing.
    private func teach() {
        open(nil)
        choices["type"]!.select(GestureType.stroke.rawValue)
        taking = .shape(Teacher())
        say("Draw the shape on the touchscreen with one finger, as you will use it: \(Teacher.strokes) times.")
    }

    /// The next touch names the application of the window under it.
    private func pickApp() {
        taking = .app
        say("Touch the window of the application on the touchscreen.")
    }

    private func took(_ path: [Point], _ app: String?) {
        switch taking {
        case .nothing:
            return
        case .app:
            taking = .nothing
            guard let app else {
                return say("gestured does not know which application is there (the desktop does not say where its windows are): type its name")
            }
            gtk_editable_set_text(fields["apps"]!.opaque, app)
            say("Picked \(app).")
        case .shape(var teacher):
            switch teacher.take(path) {
            case .tooSmall:
                taking = .shape(teacher)
                say("Too small (at least \(Int(Teacher.smallestMM)) mm across): draw it again.")
            case .again(let drawn):
                taking = .shape(teacher)
                say("Stroke \(drawn) of \(Teacher.strokes): again.")
            case .learned(let examples):
                taking = .nothing
                learned = examples
                let confusions = Teacher.confusions(examples, beside: files.learnedShapes)
                say("Learned from \(examples.count) strokes. " + (confusions.isEmpty ? "It cannot be taken for another of your shapes. "
                    : "It could be taken for another: \(confusions.joined(separator: "; ")). Draw it otherwise, or teach it again. ")
                    + "Name it and Save; then draw it to see it fire.")
            }
        }
    }
}
