// GNOME Shell's screenshots, for a test: GNOME Shell takes them only for a few callers
// (org.gnome.Screenshot among them), so this owns that name on the session bus, then
// for each line read from stdin, "X Y WIDTH HEIGHT PATH", writes a PNG of that part of
// the screen to PATH, answering "done" or why not.
//   gjs tests/e2e/gnome_screenshot.js
const {Gio, GLib} = imports.gi;

const input = new Gio.DataInputStream({base_stream: new Gio.UnixInputStream({fd: 0})});
const loop = new GLib.MainLoop(null, false);

function next() {
    input.read_line_async(GLib.PRIORITY_DEFAULT, null, (stream, result) => {
        const [line] = stream.read_line_finish_utf8(result);
        if (line === null)
            return loop.quit();
        const [x, y, width, height, path] = line.split(' ');
        Gio.DBus.session.call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot',
            'ScreenshotArea', new GLib.Variant('(iiiibs)', [+x, +y, +width, +height, false, path]), null, Gio.DBusCallFlags.NONE, 30000, null,
            (connection, answer) => {
                try {
                    const [success] = connection.call_finish(answer).deepUnpack();
                    print(success ? 'done' : 'not taken');
                } catch (e) {
                    print(`failed: ${e.message}`);
                }
                next();
            });
    });
}

Gio.bus_own_name(Gio.BusType.SESSION, 'org.gnome.Screenshot', Gio.BusNameOwnerFlags.NONE, null,
    () => { print('ready'); next(); }, () => { print('cannot own org.gnome.Screenshot'); loop.quit(); });
loop.run();
