// A real Wayland client for the desktop tests: one GTK 4 window whose app id (and title)
// is the first argument, 400×300 or as wide and high as the next two say, open until killed.
//   gjs tests/gtk_window.js APP_ID [WIDTH HEIGHT]
imports.gi.versions.Gtk = '4.0';
const {Gtk, GLib} = imports.gi;
const [appId, width, height] = ARGV;
GLib.set_prgname(appId);
Gtk.init();
new Gtk.Window({title: appId, default_width: Number(width || 400), default_height: Number(height || 300)}).present();
new GLib.MainLoop(null, false).run();
