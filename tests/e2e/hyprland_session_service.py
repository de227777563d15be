#!/usr/bin/env python3
"""A real Hyprland, as a session on the VM's DRM card (tests/e2e/service.sh's suite, run
on Debian unstable with VM_QEMU_OPTS='-device virtio-vga': Hyprland runs on a seat, not
headless): hy logs in on a VT and her session runs Hyprland with two foot windows (app
ids firefox and kitty). gestured, as hy in her session (its $HYPRLAND_INSTANCE_SIGNATURE),
replays a three-finger swipe every 1.5 s while Hyprland itself moves the focus
(`hyprctl dispatch`); each step waits for the daemon to say the application
in front (tests/following.py), and the first swipe begun after fires firefox's binding
only while firefox is in front; once both windows are closed, none is."""
import os, shutil, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import test_apps  # noqa: E402
from desktop_session import Session  # noqa: E402
from following import Printed, app_said, each_step, ran  # noqa: E402
from seat_sessions import read, run  # noqa: E402
from uinput_panel import check, failures, wait_for  # noqa: E402

if not shutil.which("Hyprland"):
    # Only Debian unstable has Hyprland; its archive may not have installed it on the day.
    missing = read("/gestured-root-missing").split()
    print("skipped: the archive could not install hyprland when this root was made" if "hyprland" in missing
          else "FAIL Hyprland is not installed: scripts/debian-root sid installs it")
    sys.exit(0 if "hyprland" in missing else 1)
session = Session("hy", "", ["Hyprland"], ["GALLIUM_DRIVER=llvmpipe"],
                  {".config/hypr/hyprland.lua": "hl.config({ misc = { disable_hyprland_logo = true } })\n"})
runtime = session.env["XDG_RUNTIME_DIR"]
check("Hyprland runs on the DRM card in her session",
      wait_for(120, lambda: os.path.isdir(f"{runtime}/hypr") and os.listdir(f"{runtime}/hypr")))
signature = os.listdir(f"{runtime}/hypr")[0]
display = test_apps.waited("Hyprland's display", lambda: next(
    (f for f in sorted(os.listdir(runtime)) if f.startswith("wayland-") and not f.endswith(".lock")), None), seconds=60)
env = dict(session.env, HYPRLAND_INSTANCE_SIGNATURE=signature, WAYLAND_DISPLAY=display)
windows = [subprocess.Popen(session.as_user + ["foot", "--app-id", app, "sleep", "600"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for app in ("firefox", "kitty")]


def hyprctl(*args):
    return subprocess.run(session.as_user + ["hyprctl", *args], env=env, capture_output=True, text=True, timeout=30).stdout


# hyprctl gives up on an answer after 5 s, and under emulation Hyprland, starting
# Xwayland, may take longer for minutes: asked again until 3 minutes have passed.
clients, asked_from = [""], time.monotonic()
mapped = wait_for(180, lambda: clients.append(hyprctl("clients")) or clients[-1].count("class: ") >= 2)
check(f"both windows map ({time.monotonic() - asked_from:.0f} s)", mapped)
if failures():
    print(f"--- hyprctl clients, {len(clients) - 1} times, last:\n{clients[-1][-1000:]}")
work = "/tmp/hyprland-gestured"
os.makedirs(work, exist_ok=True)
run("chown", "hy:hy", work)
with open(f"{work}/gestured.toml", "w") as f:
    f.write(test_apps.apps_config(f"{work}/fired.txt", bus="none"))
test_apps.swipes(120, 1500).save(f"{work}/rec.evemu")
daemon = subprocess.Popen(session.as_user + ["gestured", "run", "--config", f"{work}/gestured.toml", "--replay", f"{work}/rec.evemu",
                                             "--print", "--verbose"],
                          env=env, stdout=subprocess.PIPE, stderr=open(f"{work}/gestured.log", "w"), text=True)
printed = Printed(daemon.stdout)
dispatched = []


def focus(app):
    """Hyprland itself moves the focus to `app`'s window (a dispatch is Lua from Hyprland
    0.57 on, as its configuration is); what it answered is kept."""
    return lambda: dispatched.append(hyprctl("dispatch", f'hl.dsp.focus({{ window = "class:^{app}$" }})').strip())


def close_all():
    for window in windows:
        window.kill()


# Each step: what changes, whether it is made again until the daemon sees it, and the
# application then in front ("" for none, once both windows are closed).
steps = [(focus("kitty"), True, "kitty"), (focus("firefox"), True, "firefox"), (focus("kitty"), True, "kitty"),
         (focus("firefox"), True, "firefox"), (close_all, False, "")]
fired = [ran(printed.lines[at]) if at is not None else None for _, _, at in each_step(printed, steps, attempts=6)]
daemon.terminate()
log = read(f"{work}/gestured.log")
check("gestured follows Hyprland's event socket", "hyprland: following the application in front" in log)
check(f"each swipe fires the binding of the application Hyprland has in front ({fired})",
      fired == ["global", "firefox", "global", "firefox", "global"])
if failures():
    print("--- printed, what said the application in front\n" + "\n".join(line for line in printed.lines if app_said(line) is not None))
    print(f"--- Hyprland answered the focus moves: {dispatched[:8]}")
    print("--- hyprctl -j activewindow\n" + hyprctl("-j", "activewindow")[-2000:])
    print("--- gestured\n" + log[-3000:])
    print("--- Hyprland\n" + read(session.log)[-2000:])
close_all()
sys.exit(1 if failures() else 0)
