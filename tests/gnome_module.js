// Loads the shipped GNOME Shell extension for GNOME 45 and later as GNOME Shell does, as
// an ES module (gjs -m), with stand-ins for what exists only inside the Shell (its
// extension.js and main.js, St, Meta, and `global`'s display, workspaces and windows:
// none); then enables it, and gives the
// focus to each window read from stdin, one JSON line each ({"appId", "class",
// "instance"}, or null for none), answering "done" when the calls it made were sent. Its
// ReportApp calls go on the real session bus ($DBUS_SESSION_BUS_ADDRESS), from this
// process, which stays on the bus. The overlay it draws is tested in a real GNOME Shell
// (tests/real_desktops.py).
//   gjs -m tests/gnome_module.js EXTENSION_DIR
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

const [directory] = ARGV;
const work = GLib.dir_make_tmp('gestured-gnome-XXXXXX');
let text = new TextDecoder().decode(GLib.file_get_contents(`${directory}/extension.js`)[1]);
const standIns = {
    "'resource:///org/gnome/shell/extensions/extension.js'": ['shell-extension.js',
        'export class Extension { constructor(metadata) { this.metadata = metadata; this.uuid = metadata.uuid; } }\n'],
    "'resource:///org/gnome/shell/ui/main.js'": ['shell-main.js',
        'const uiGroup = {add_child() {}, set_child_above_sibling() {}};\n' +
        'export const layoutManager = {uiGroup, monitors: [], primaryMonitor: {x: 0, y: 0, width: 1, height: 1},\n' +
        '    connect() { return 1; }, disconnect() {}};\n'],
    "'gi://Meta'": ['meta.js', 'export default {WindowType: {DESKTOP: 1}};\n'],
    "'gi://St'": ['st.js',
        'class DrawingArea { connect() { return 1; } hide() {} destroy() {} }\nexport default {DrawingArea};\n'],
};
for (const [module, [file, source]] of Object.entries(standIns)) {
    if (!text.includes(module))
        throw new Error(`extension.js does not import ${module}`);
    text = text.replace(module, `'./${file}'`);
    GLib.file_set_contents(`${work}/${file}`, source);
}
GLib.file_set_contents(`${work}/extension.js`, text);

let focus = null, notify = null;
globalThis.global = {
    display: {
        get focus_window() { return focus; },
        connect: (signal, f) => { if (signal === 'notify::focus-window') notify = f; return 1; },
        disconnect: () => { notify = null; },
    },
    workspace_manager: {get_active_workspace: () => ({}), connect: () => 1, disconnect: () => {}},
    get_window_actors: () => [],
};

const metadata = JSON.parse(new TextDecoder().decode(GLib.file_get_contents(`${directory}/metadata.json`)[1]));
const {default: Extension} = await import(`file://${work}/extension.js`);
const extension = new Extension(metadata);
extension.enable();

const input = new Gio.DataInputStream({base_stream: new Gio.UnixInputStream({fd: 0})});
const loop = new GLib.MainLoop(null, false);
function next() {
    input.read_line_async(GLib.PRIORITY_DEFAULT, null, (stream, result) => {
        const [line] = stream.read_line_finish_utf8(result);
        if (line === null) {
            extension.disable();
            return loop.quit();
        }
        const w = JSON.parse(line);
        focus = w && {
            get_gtk_application_id: () => w.appId || null, get_sandboxed_app_id: () => null,
            get_wm_class: () => w.class || null, get_wm_class_instance: () => w.instance || null,
        };
        notify();
        Gio.DBus.session.flush(null, () => {
            print('done');
            next();
        });
    });
}
next();
loop.run();
System.exit(0);
