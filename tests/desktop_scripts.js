// Runs the shipped KWin script or GNOME Shell extension under stand-ins for KWin's and
// GNOME Shell's objects, activates the windows given, and prints each ReportApp call it
// makes to gestured's own name as a line tests/app_reporter.c takes ("report SOURCE
// APP_ID WM_CLASS INSTANCE", "-" for empty), and those to the agent's as "agent ...".
//   node tests/desktop_scripts.js kwin|gnome SCRIPT '[{"appId": ..., "class": ..., "instance": ...} or null, ...]'
const fs = require('fs');
const vm = require('vm');
const [kind, script, windowsJSON] = process.argv.slice(2);
const windows = JSON.parse(windowsJSON);
const word = (s) => (s === '' || s === undefined || s === null ? '-' : String(s));
const said = (name, args) => console.log(`${name === 'org.gestured.Agent1' ? 'agent' : 'report'} ${args.map(word).join(' ')}`);

let activated = null;
const context = {};
if (kind === 'kwin') {
    // Plasma 6's names.
    context.workspace = { activeWindow: null, windowActivated: { connect: (f) => { activated = f; } } };
    context.callDBus = (name, path, iface, method, ...args) => { if (method === 'ReportApp') said(name, args); };
    vm.runInNewContext(fs.readFileSync(script, 'utf8'), context);
    for (const w of windows) {
        activated(w && { desktopFileName: w.appId || '', resourceClass: w.class || '', resourceName: w.instance || '' });
    }
} else {
    let focus = null, notify = null;
    context.global = { display: {
        get focus_window() { return focus; },
        connect: (signal, f) => { if (signal === 'notify::focus-window') notify = f; return 1; },
        disconnect: () => {},
    } };
    class Variant { constructor(type, value) { this.value = value; } }
    // The overlay's objects do nothing here (tests/e2e/overlay_service.py draws it in a real GNOME Shell).
    class DrawingArea { connect() { return 1; } hide() {} destroy() {} }
    const uiGroup = { add_child: () => {}, set_child_above_sibling: () => {} };
    context.imports = {
        gi: {
            GLib: { Variant },
            St: { DrawingArea },
            Gio: {
                DBusCallFlags: { NO_AUTO_START: 1 }, BusType: { SESSION: 2 }, BusNameWatcherFlags: { NONE: 0 },
                DBusSignalFlags: { NONE: 0 }, bus_watch_name: () => 1, bus_unwatch_name: () => {},
                DBus: { session: {
                    call: (name, path, iface, method, variant) => { if (method === 'ReportApp') said(name, variant.value); },
                    signal_subscribe: () => 1, signal_unsubscribe: () => {},
                } },
            },
        },
        ui: { main: { layoutManager: { uiGroup } } },
    };
    vm.runInNewContext(fs.readFileSync(script, 'utf8') + '\nthis.extension = init();', context);
    context.extension.enable();
    for (const w of windows) {
        focus = w && {
            get_gtk_application_id: () => w.appId || null, get_sandboxed_app_id: () => null,
            get_wm_class: () => w.class || null, get_wm_class_instance: () => w.instance || null,
        };
        notify();
    }
}
