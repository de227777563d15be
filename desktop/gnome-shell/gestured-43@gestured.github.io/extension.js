/* gestured's GNOME Shell extension for GNOME 43 and 44 (their legacy form; GNOME 45 and
 * later load gestured@gestured.github.io, an ES module): at every change of the focused window,
 * ReportApp(source, app id, WM_CLASS class, instance), and ReportWindows (where the
 * windows are, below) to gestured on the session bus: the user service
 * (org.gestured.Gestured1), or the session agent that passes both to the system service
 * (org.gestured.Agent1). GNOME Shell tells no other process which window has the focus
 * nor where the windows are; this is how gestured hears it. It also draws gestured's overlay (below).
 * Enable it once:
 *   gnome-extensions enable gestured-43@gestured.github.io
 * report(), the windows' reporter and the overlay are copied in gestured@gestured.github.io: a legacy extension
 * cannot load an ES module, nor the other way round. */
const { Gio, GLib, Meta, St } = imports.gi;
const Main = imports.ui.main;

// The user service's name, and the session agent's that passes what it hears on to the system service.
function call(method, args) {
    for (const [name, path] of [['org.gestured.Gestured1', '/org/gestured/Gestured1'], ['org.gestured.Agent1', '/org/gestured/Agent1']])
        Gio.DBus.session.call(name, path, name, method, args, null, Gio.DBusCallFlags.NO_AUTO_START, 1000, null, null);
}

// A window's app id, WM_CLASS class and instance, empty for what it has not.
function names(window) {
    return [window.get_gtk_application_id() || window.get_sandboxed_app_id() || '', window.get_wm_class() || '',
        window.get_wm_class_instance() || ''];
}

function report() {
    const window = global.display.focus_window;
    call('ReportApp', new GLib.Variant('(ssss)', ['gnome', ...(window ? names(window) : ['', '', ''])]));
}

/* Where the windows are, for gestures on the window under the finger: the windows shown
 * on the active workspace, topmost first, and the primary monitor (where GNOME maps a
 * built-in touchscreen), as ReportWindows(source, layout as JSON) whenever a window
 * opens, closes, moves, restacks or another workspace shows: once things have been still
 * for 150 ms, and only when it changed (a window dragged is said where it is let go). */
const MOST_WINDOWS = 256, SETTLE_MS = 150;
const WINDOW_SIGNALS = ['position-changed', 'size-changed', 'notify::minimized', 'workspace-changed'];

class WindowsReporter {
    constructor() {
        this._followed = new Map();
        this._settle = 0;
        this._said = null;
        const soon = () => this._soon();
        this._display = ['restacked', 'window-created'].map(signal => global.display.connect(signal, (display, window) => {
            if (window)
                this._follow(window);
            soon();
        }));
        this._workspaces = global.workspace_manager.connect('active-workspace-changed', soon);
        this._monitors = Main.layoutManager.connect('monitors-changed', soon);
        for (const actor of global.get_window_actors())
            this._follow(actor.get_meta_window());
        this._report();
    }

    destroy() {
        for (const id of this._display)
            global.display.disconnect(id);
        global.workspace_manager.disconnect(this._workspaces);
        Main.layoutManager.disconnect(this._monitors);
        for (const [window, ids] of this._followed)
            ids.forEach(id => window.disconnect(id));
        this._followed.clear();
        if (this._settle)
            GLib.source_remove(this._settle);
        this._settle = 0;
    }

    _follow(window) {
        if (!window || this._followed.has(window))
            return;
        const ids = WINDOW_SIGNALS.map(signal => window.connect(signal, () => this._soon()));
        ids.push(window.connect('unmanaged', () => {
            ids.forEach(id => window.disconnect(id));
            this._followed.delete(window);
            this._soon();
        }));
        this._followed.set(window, ids);
    }

    // Said again even unchanged: to a gestured or an agent that came on the bus after it was said.
    again() {
        this._said = null;
        this._soon();
    }

    _soon() {
        if (this._settle)
            GLib.source_remove(this._settle);
        this._settle = GLib.timeout_add(GLib.PRIORITY_DEFAULT, SETTLE_MS, () => {
            this._settle = 0;
            this._report();
            return GLib.SOURCE_REMOVE;
        });
    }

    _report() {
        const monitor = Main.layoutManager.primaryMonitor;
        const workspace = global.workspace_manager.get_active_workspace();
        const windows = [];
        const actors = global.get_window_actors();
        for (let i = actors.length - 1; i >= 0 && windows.length < MOST_WINDOWS; i--) {
            const window = actors[i].get_meta_window();
            if (!window || window.minimized || window.is_hidden() || !window.located_on_workspace(workspace) ||
                window.get_window_type() === Meta.WindowType.DESKTOP)
                continue;
            const frame = window.get_frame_rect();
            windows.push([frame.x, frame.y, frame.width, frame.height, ...names(window)]);
        }
        const layout = monitor ? JSON.stringify({screen: [monitor.x, monitor.y, monitor.width, monitor.height], windows}) : '{}';
        if (layout === this._said)
            return;
        this._said = layout;
        call('ReportWindows', new GLib.Variant('(ss)', ['gnome', layout]));
    }
}

/* The overlay (`overlay = true`), which GNOME Shell's lack of a layer shell leaves to this
 * extension: each finger's trail and a bar of the lead gesture's progress, blue while it
 * decides, green once it will fire or fired, red when nothing matches, grey under the
 * touch lock; gone 0.7 s after the lift. The actor is not reactive: every click goes to
 * the window under it. Drawn are the Feedback updates the session agent addresses to
 * GNOME Shell, and only those sent by the owner of org.gestured.Agent1. */
const AGENT = 'org.gestured.Agent1';
const COLOURS = {
    'deciding': [0x35, 0x84, 0xe4], 'will-fire': [0x33, 0xd1, 0x7a], 'fired': [0x33, 0xd1, 0x7a],
    'nothing-matches': [0xe0, 0x1b, 0x24], 'touch-locked': [0x9a, 0x99, 0x96],
};
const LINGER_MS = 700, MOST_FINGERS = 10, MOST_POINTS = 256, LINE = 8, BAR = 300;

class Overlay {
    constructor() {
        this._trails = [];
        this._drawing = false;
        this._colour = COLOURS['deciding'];
        this._progress = 0;
        this._linger = 0;
        this._owner = null;
        this._area = new St.DrawingArea({reactive: false, visible: false});
        this._area.connect('repaint', area => this._repaint(area));
        Main.layoutManager.uiGroup.add_child(this._area);
        // An agent that goes mid-gesture sends no lift: what it drew goes with it.
        this._watch = Gio.bus_watch_name(Gio.BusType.SESSION, AGENT, Gio.BusNameWatcherFlags.NONE,
            (connection, name, owner) => { this._owner = owner; }, () => { this._owner = null; this._clear(); });
        this._subscription = Gio.DBus.session.signal_subscribe(null, AGENT, 'Feedback', '/org/gestured/Agent1', null,
            Gio.DBusSignalFlags.NONE, (connection, sender, path, iface, signal, parameters) => this._update(sender, parameters));
    }

    destroy() {
        Gio.DBus.session.signal_unsubscribe(this._subscription);
        Gio.bus_unwatch_name(this._watch);
        if (this._linger)
            GLib.source_remove(this._linger);
        this._area.destroy();
    }

    // Feedback(panel, output, gesture, progress, verdict, fingers as x, y pairs over the output).
    _update(sender, parameters) {
        if (sender !== this._owner || parameters.get_type_string() !== '(sssdsad)')
            return;
        const [, output, , progress, verdict, xy] = parameters.deepUnpack();
        if (!this._drawing)
            this._trails = [];
        if (this._linger)
            GLib.source_remove(this._linger);
        this._linger = 0;
        this._drawing = xy.length > 0;
        if (this._drawing) {
            for (let i = 0; 2 * i + 1 < xy.length && i < MOST_FINGERS; i++) {
                const trail = this._trails[i] || (this._trails[i] = []);
                trail.push([xy[2 * i], xy[2 * i + 1]]);
                if (trail.length > MOST_POINTS)
                    trail.shift();
            }
        } else {
            this._linger = GLib.timeout_add(GLib.PRIORITY_DEFAULT, LINGER_MS, () => {
                this._linger = 0;
                this._clear();
                return GLib.SOURCE_REMOVE;
            });
        }
        this._colour = COLOURS[verdict] || COLOURS['deciding'];
        this._progress = Number.isFinite(progress) ? Math.min(1, Math.max(0, progress)) : 0;
        const monitor = this._monitor(output);
        this._area.set_position(monitor.x, monitor.y);
        this._area.set_size(monitor.width, monitor.height);
        Main.layoutManager.uiGroup.set_child_above_sibling(this._area, null);
        this._area.show();
        this._area.queue_repaint();
    }

    _clear() {
        this._drawing = false;
        this._trails = [];
        this._area.hide();
    }

    // The monitor of the panel's output (its connector), else the primary one.
    _monitor(connector) {
        try {
            const index = global.backend.get_monitor_manager().get_monitor_for_connector(connector);
            if (index >= 0 && Main.layoutManager.monitors[index])
                return Main.layoutManager.monitors[index];
        } catch (e) {
        }
        return Main.layoutManager.primaryMonitor;
    }

    _repaint(area) {
        const cr = area.get_context();
        const [width, height] = area.get_surface_size();
        const [r, g, b] = this._colour;
        cr.setSourceRGB(r / 255, g / 255, b / 255);
        cr.setLineWidth(LINE);
        cr.setLineCap(1);  // round
        cr.setLineJoin(1);
        for (const trail of this._trails) {
            if (!trail || trail.length === 0)
                continue;
            cr.moveTo(trail[0][0] * width, trail[0][1] * height);
            for (const [x, y] of trail)
                cr.lineTo(x * width, y * height);
            cr.stroke();
        }
        cr.rectangle((width - BAR) / 2, 16, BAR * this._progress + 1, 10);
        cr.fill();
        cr.$dispose();
    }
}

class Extension {
    enable() {
        this._focus = global.display.connect('notify::focus-window', report);
        report();
        this._windows = new WindowsReporter();
        // gestured (the user service) or the session agent started after GNOME Shell, or
        // again: it hears both from the start, not at the next change.
        this._watches = ['org.gestured.Gestured1', 'org.gestured.Agent1'].map(name => Gio.bus_watch_name(
            Gio.BusType.SESSION, name, Gio.BusNameWatcherFlags.NONE, () => { report(); this._windows.again(); }, null));
        this._overlay = new Overlay();
    }

    disable() {
        global.display.disconnect(this._focus);
        this._focus = null;
        this._watches.forEach(id => Gio.bus_unwatch_name(id));
        this._watches = null;
        this._windows.destroy();
        this._windows = null;
        this._overlay.destroy();
        this._overlay = null;
    }
}

function init() {
    return new Extension();
}
