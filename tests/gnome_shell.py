"""What the tests ask of a real GNOME Shell on its bus (tests/real_desktops.py and the
service suites' GNOME sessions)."""
import time


def overview_left(shell):
    """Asks GNOME Shell to leave its overview, which it shows once its start is done (a
    window that opens there is not given the focus): true when it is left a second after.
    `shell(*args)` is a dbus-send call's reply text, its arguments after org.gnome.Shell's
    object path."""
    shell("org.freedesktop.DBus.Properties.Set", "string:org.gnome.Shell", "string:OverviewActive", "variant:boolean:false")
    time.sleep(1)
    return "boolean false" in shell("org.freedesktop.DBus.Properties.Get", "string:org.gnome.Shell", "string:OverviewActive")
