// Runs the shipped KWin script or GNOME Shell extension under stand-ins for KWin's and
// GNOME Shell's objects, activates the windows given, and prints each call it makes to
// gestured's own name as a line tests/app_reporter.c takes ("report SOURCE APP_ID
// WM_CLASS INSTANCE", "-" for empty; "windows SOURCE LAYOUT"), and those to the agent's
// as "agent ...". With a desktop, its windows are where it says, bottom first
// ({"screen": [x, y, width, height], "stack": [{"appId", "class", "instance", "frame": [x,
// y, width, height]}, ...]}), and the calls made once they are are printed.
//   node tests/desktop_scripts.js kwin|gnome SCRIPT '[{"appId": ..., "class": ..., "instance": ...} or null, ...]' [DESKTOP]
const fs = require('fs');
const vm = require('vm');
const [kind, script, windowsJSON, desktopJSON] = process.argv.slice(2);
const windows = JSON.parse(windowsJSON);
const desktop = desktopJSON ? JSON.parse(desktopJSON) : {screen: null, stack: []};
const word = (s) => (s === '' || s === undefined || s === null ? '-' : String(s));
const said = (name, method, args) => {
    const who = name === 'org.gestured.Agent1' ? 'agent' : '';
    if (method === 'ReportApp') console.log(`${who || 'report'} ${args.map(word).join(' ')}`);
    if (method === 'ReportWindows') console.log(`${who ? 'agent ' : ''}windows ${args[0]} ${args[1]}`);
};
const rectangle = ([x, y, width, height]) => ({x, y, width, height});

let activated = null;
const context = {};
if (kind === 'kwin') {
    // Plasma 6's names.
    const stack = desktop.stack.map(w => ({
        desktopFileName: w.appId || '', resourceClass: w.class || '', resourceName: w.instance || '',
        frameGeometry: rectangle(w.frame), desktops: [{id: 'one'}], minimized: false, hidden: false, deleted: false,
        desktopWindow: false, move: false, resize: false, frameGeometryChanged: {connect: () => {}},
    }));
    const signal = () => ({connect: () => {}});
    context.workspace = {
        activeWindow: null, currentDesktop: {id: 'one'}, windowActivated: { connect: (f) => { activated = f; } },
        windowAdded: signal(), windowRemoved: signal(), stackingOrderChanged: signal(), currentDesktopChanged: signal(),
        screensChanged: signal(), stackingOrder: stack,
        screens: desktop.screen ? [{name: 'HDMI-A-1', geometry: rectangle([0, 0, 1, 1])}, {name: 'eDP-1', geometry: rectangle(desktop.screen)}] : [],
    };
    context.callDBus = (name, path, iface, method, ...args) => said(name, method, args);
    vm.runInNewContext(fs.readFileSync(script, 'utf8'), context);
    for (const w of windows) {
        activated(w && { desktopFileName: w.appId || '', resourceClass: w.class || '', resourceName: w.instance || '' });
    }
} else {
    let focus = null, notify = null;
    const settling = [];
    const none = () => {};
    const names = w => ({
        get_gtk_application_id: () => w.appId || null, get_sandboxed_app_id: () => null,
        get_wm_class: () => w.class || null, get_wm_class_instance: () => w.instance || null,
    });
    const actors = desktop.stack.map(w => ({get_meta_window: () => Object.assign(names(w), {
        minimized: false, is_hidden: () => false, located_on_workspace: () => true, get_window_type: () => 0,
        get_frame_rect: () => rectangle(w.frame), connect: () => 1, disconnect: none,
    })}));
    context.global = {
        display: {
            get focus_window() { return focus; },
            connect: (signal, f) => { if (signal === 'notify::focus-window') notify = f; return 1; },
            disconnect: none,
        },
        workspace_manager: {get_active_workspace: () => ({}), connect: () => 1, disconnect: none},
        get_window_actors: () => actors,
    };
    class Variant { constructor(type, value) { this.value = value; } }
    // The overlay's objects do nothing here (tests/e2e/overlay_service.py draws it in a real GNOME Shell).
    class DrawingArea { connect() { return 1; } hide() {} destroy() {} }
    const uiGroup = { add_child: () => {}, set_child_above_sibling: () => {} };
    const primaryMonitor = desktop.screen && rectangle(desktop.screen);
    context.imports = {
        gi: {
            GLib: { Variant, PRIORITY_DEFAULT: 0, SOURCE_REMOVE: false, source_remove: none,
                    timeout_add: (priority, ms, f) => settling.push(f) },
            Meta: { WindowType: { DESKTOP: 1 } },
            St: { DrawingArea },
            Gio: {
                DBusCallFlags: { NO_AUTO_START: 1 }, BusType: { SESSION: 2 }, BusNameWatcherFlags: { NONE: 0 },
                DBusSignalFlags: { NONE: 0 }, bus_watch_name: () => 1, bus_unwatch_name: () => {},
                DBus: { session: {
                    call: (name, path, iface, method, variant) => said(name, method, variant.value),
                    signal_subscribe: () => 1, signal_unsubscribe: () => {},
                } },
            },
        },
        ui: { main: { layoutManager: { uiGroup, primaryMonitor, connect: () => 1, disconnect: none } } },
    };
    vm.runInNewContext(fs.readFileSync(script, 'utf8') + '\nthis.extension = init();', context);
    context.extension.enable();
    while (settling.length) settling.shift()();
    for (const w of windows) {
        focus = w && names(w);
        notify();
    }
}
