/* gestured's GNOME Shell extension, for GNOME 45 and later (an ES module; GNOME 43 and 44
 * load gestured-43@gestured.github.io instead): at every change of the focused window,
 * ReportApp(source, app id, WM_CLASS class, instance) to gestured on the session bus: the
 * user service (org.gestured.Gestured1), or the session agent that passes it to the
 * system service (org.gestured.Agent1). GNOME Shell tells no other process which window
 * has the focus; this is how gestured hears it. Enable it once:
 *   gnome-extensions enable gestured@gestured.github.io */
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

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

export default class GesturedExtension extends Extension {
    enable() {
        this._focus = global.display.connect('notify::focus-window', report);
        report();
    }

    disable() {
        global.display.disconnect(this._focus);
        this._focus = null;
    }
}
