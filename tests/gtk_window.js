// A real Wayland client for the desktop tests: one GTK 4 window whose app id (and title)
// is the first argument, open until killed.
//   gjs tests/gtk_window.js APP_ID
imports.gi.versions.Gtk = '4.0';
const {Gtk, GLib} = imports.gi;
const [appId] = ARGV;
GLib.set_prgname(appId);
Gtk.init();
new Gtk.Window({title: appId, default_width: 400, default_height: 300}).present();
new GLib.MainLoop(null, false).run();
