/* gestured's GNOME Shell extension for GNOME 43 and 44 (their legacy form; GNOME 45 and
 * later load gestured@gestured.github.io, an ES module): at every change of the focused window,
 * ReportApp(source, app id, WM_CLASS class, instance) to gestured on the session bus: the
 * user service (org.gestured.Gestured1), or the session agent that passes it to the
 * system service (org.gestured.Agent1). GNOME Shell tells no other process which window
 * has the focus; this is how gestured hears it. Enable it once:
 *   gnome-extensions enable gestured-43@gestured.github.io */
const { Gio, GLib } = imports.gi;

function report() {
    const window = global.display.focus_window;
    const appId = window ? (window.get_gtk_application_id() || window.get_sandboxed_app_id() || '') : '';
    const windowClass = window ? (window.get_wm_class() || '') : '';
    const instance = window ? (window.get_wm_class_instance() || '') : '';
    const args = new GLib.Variant('(ssss)', ['gnome', appId, windowClass, instance]);
    for (const [name, path] of [['org.gestured.Gestured1', '/org/gestured/Gestured1'], ['org.gestured.Agent1', '/org/gestured/Agent1']]) {
        Gio.DBus.session.call(name, path, name, 'ReportApp', args, null, Gio.DBusCallFlags.NO_AUTO_START, 1000, null, null);
    }
}

class Extension {
    enable() {
        this._focus = global.display.connect('notify::focus-window', report);
        report();
    }

    disable() {
        global.display.disconnect(this._focus);
        this._focus = null;
    }
}

function init() {
    return new Extension();
}
