#!/usr/bin/python3
"""A person's hands on an application through its accessibility names (AT-SPI), one
command a line on stdin, one answer a line on stdout; run by Debian's python3 (python3-gi,
gir1.2-atspi-2.0) with the application's session bus in the environment.

    APP                       wait (up to 20 s) for the application APP on the bus
    click NAME                press the widget named NAME (its action: click, toggle)
    type NAME TEXT            NAME's text replaced by TEXT
    text NAME                 the text NAME shows: an entry's, or what the labels in it say
    names                     every name shown now, | between
Answers "ok …" or "error …"."""
import sys, time, warnings
import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi

warnings.simplefilter("ignore", DeprecationWarning)  # the *_iface getters: what Debian 12's Atspi has

app = None


def walk(node, depth=0):
    if node is None or depth > 60:
        return
    yield node
    for i in range(node.get_child_count()):
        yield from walk(node.get_child_at_index(i), depth + 1)


def find(name, able=lambda node: True):
    """The widget named NAME that can do what `able` asks (a button's label has its name
    too), waited for up to 10 s: a window made again after a press takes a moment."""
    for _ in range(40):
        for node in walk(app):
            try:
                if node.get_name() == name and able(node) and not node.get_state_set().contains(Atspi.StateType.DEFUNCT):
                    return node
            except Exception:
                continue  # gone while the tree was walked: a list made again
        time.sleep(0.25)
    return None


def answer(text):
    print(text.replace("\n", "\\n"), flush=True)


for line in sys.stdin:
    words = line.rstrip("\n").split(" ", 2)
    if app is not None:
        app.clear_cache()  # names and children as they are now, not as first read
    try:
        if words[0] == "app":
            for _ in range(80):
                desktop = Atspi.get_desktop(0)
                app = next((desktop.get_child_at_index(i) for i in range(desktop.get_child_count())
                            if desktop.get_child_at_index(i).get_name() == words[1]), None)
                if app:
                    break
                time.sleep(0.25)
            answer("ok" if app else "error no application " + words[1])
        elif words[0] == "click":
            node = find(" ".join(words[1:]), lambda node: node.get_action_iface() is not None)
            action = node.get_action_iface() if node else None
            if not action:
                answer("error nothing to press named " + " ".join(words[1:]))
                continue
            try:
                action.do_action(0)
            except Exception:  # gone between finding and pressing: find it again, once
                time.sleep(0.5)
                find(" ".join(words[1:]), lambda node: node.get_action_iface() is not None).get_action_iface().do_action(0)
            time.sleep(0.3)  # GTK acts on the press from its main loop, after answering it
            answer("ok")
        elif words[0] == "type":
            node = find(words[1], lambda node: node.get_editable_text_iface() is not None)
            editable = node.get_editable_text_iface() if node else None
            if not editable:
                answer("error no entry named " + words[1])
                continue
            editable.set_text_contents(words[2] if len(words) > 2 else "")
            answer("ok")
        elif words[0] == "text":
            node = find(" ".join(words[1:]))
            if not node:
                answer("error nothing named " + " ".join(words[1:]))
                continue
            # An entry's text; a label's, which is its name (GTK 4.8's labels have no Text).
            shown = [n.get_text_iface().get_text(0, -1) if n.get_role() == Atspi.Role.TEXT else n.get_name()
                     for n in list(walk(node))[1:]]
            answer("ok " + " ".join(t for t in shown if t))
        elif words[0] == "names":
            answer("ok " + "|".join(n.get_name() for n in walk(app) if n.get_name()))
        else:
            answer("error unknown command " + words[0])
    except Exception as error:  # an application gone mid-way answers as an error, not a crash
        answer("error " + str(error))
