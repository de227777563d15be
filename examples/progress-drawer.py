#!/usr/bin/python3
"""A drawer that follows a pull-down from the top of the touchscreen: it listens on the
session bus for gestured's Progress signal (a gesture with tag = "drawer", see
gestured.toml(5)), which the session agent says while the finger moves, draws the
drawer down to the finger, and at the lift snaps it open (pulled past half way) or shut.

    examples/progress-drawer.py [TAG]

GTK 4 through PyGObject (Debian: python3-gi, python3-gi-cairo, gir1.2-gtk-4.0). The configuration:

    [[gesture]]
    name = "drawer"
    type = "edge-swipe"
    edge = "top"
    tag = "drawer"
"""
import sys
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk

TAG = sys.argv[1] if len(sys.argv) > 1 else "drawer"


class Drawer:
    def __init__(self, app):
        self.shown = 0.0  # how far down the drawer is: 0 shut, 1 open
        self.window = Gtk.ApplicationWindow(application=app, title="gestured drawer")
        self.window.set_default_size(640, 400)
        self.area = Gtk.DrawingArea()
        self.area.set_draw_func(self.draw)
        self.window.set_child(self.area)
        self.window.present()
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        # Only the agent's own signals: it owns org.gestured.Agent1 on the session bus.
        bus.signal_subscribe("org.gestured.Agent1", "org.gestured.Gestured1", "Progress", "/org/gestured/Gestured1",
                             None, Gio.DBusSignalFlags.NONE, self.progress)

    def progress(self, bus, sender, path, interface, signal, arguments):
        gesture, tag, progress, phase = arguments.unpack()
        if tag != TAG:
            return
        if phase in ("began", "changed"):
            self.shown = progress
        elif phase == "ended":
            self.shown = 1.0 if progress >= 0.5 else 0.0
        else:  # cancelled
            self.shown = 0.0
        print(f"{phase} {progress:.3f}", flush=True)
        self.area.queue_draw()

    def draw(self, area, cairo, width, height):
        cairo.set_source_rgb(0.2, 0.22, 0.25)
        cairo.rectangle(0, 0, width, height * self.shown)
        cairo.fill()
        cairo.set_source_rgb(0.21, 0.52, 0.89)
        cairo.rectangle(0, height * self.shown - 6, width, 6)
        cairo.fill()


app = Gtk.Application(application_id="org.gestured.Drawer", flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", lambda app: setattr(app, "drawer", Drawer(app)))
app.run([])
