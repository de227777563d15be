#!/usr/bin/env python3
"""Hands gestured a configuration as a session agent would (SetUserConfiguration on the
system bus), as whoever runs it, and prints each answer: "taken", or the error's name and
message on one line.

    push_config.py FILE                   once
    push_config.py --size BYTES           once, a text of that many bytes
    push_config.py --flood RATE SECONDS FILE   FILE's text RATE times a second; prints
                                          how many were sent and the answers heard
    push_config.py --in-session FILE      once this process is in a logind session's scope
"""
import sys, time

import dbus
import dbus.lowlevel

OBJECT = ("org.gestured.Gestured1", "/org/gestured/Gestured1")


def push(bus, text, timeout=5):
    """A caller gestured does not know yet is asked to call again once it does (its first
    call's arguments are not kept while the bus says who it is): as the agent, once."""
    for attempt in range(2):
        try:
            bus.get_object(*OBJECT).SetUserConfiguration("pushed.toml", text, dbus.ByteArray(b""),
                                                         dbus_interface="org.gestured.Gestured1", timeout=timeout)
            return "taken"
        except dbus.DBusException as error:
            if error.get_dbus_name() == "org.gestured.Gestured1.Error.AskAgain" and attempt == 0:
                continue
            return f"{error.get_dbus_name()}: {error.get_dbus_message()}".replace("\n", " | ")


def main(args):
    bus = dbus.SystemBus()
    if args[0] == "--size":
        print(push(bus, "#" * int(args[1])), flush=True)
    elif args[0] == "--flood":
        # Sent without waiting for answers (the daemon drops what is over a caller's
        # ration unanswered), and once a second one asked for on a connection of its own
        # (a ration of its own): what the same user hears while the flood goes on.
        rate, seconds = float(args[1]), float(args[2])
        text = open(args[3]).read()
        probe = dbus.SystemBus(private=True)
        sent, answers, probed = 0, [], 0
        start = time.monotonic()
        while time.monotonic() < start + seconds:
            message = dbus.lowlevel.MethodCallMessage(OBJECT[0], OBJECT[1], "org.gestured.Gestured1", "SetUserConfiguration")
            message.append("pushed.toml", text, dbus.ByteArray(b""), signature="ssay")
            message.set_no_reply(True)
            bus.send_message(message)
            sent += 1
            if time.monotonic() >= start + probed + 1:
                probed += 1
                answers.append(push(probe, text, timeout=0.5).split(":")[0])
            time.sleep(max(0, start + sent / rate - time.monotonic()))
        print(f"sent={sent} answers={','.join(answers)}", flush=True)
    elif args[0] == "--in-session":
        end = time.monotonic() + 15
        while "/session-" not in open("/proc/self/cgroup").read() and time.monotonic() < end:
            time.sleep(0.1)
        print(push(bus, open(args[1]).read()), flush=True)
    else:
        print(push(bus, open(args[0]).read()), flush=True)


main(sys.argv[1:])
