#!/usr/bin/env python3
"""The Progress signal, inside scripts/vm-run-systemd (tests/e2e/run-service progress_service.py):
the service isolates a uinput panel; una's session (PAM, logind) runs sway headless and
her agent, and her file has a pull-down from the top tagged "drawer". While her finger
pulls down, a listener in her session hears Progress from her agent on her session bus,
rising, then its end; a listener of another user's on the system bus hears none (the
service tells her agent alone). examples/progress-drawer.py, in her session, draws the
drawer down to where the finger is (grim, mid-pull; kept with VM_KEEP) and snaps it open at the lift."""
import os, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import Recording, suite_config  # noqa: E402
from seat_sessions import SwaySession, isolated_panel, journal, read, run  # noqa: E402
from svg_screenshots import png_pixels  # noqa: E402
from uinput_panel import check, failures, wait_for  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DRAWER = """[[gesture]]
name = "drawer"
type = "edge-swipe"
edge = "top"
tag = "drawer"
"""

panel = isolated_panel(suite_config("studio"), "gestured drawer panel")
una = SwaySession("una", "tty12", DRAWER)
run("useradd", "--create-home", "vic")
heard = {"una": "/tmp/progress-una.txt", "vic": "/tmp/progress-vic.txt"}
listeners = [
    subprocess.Popen(una.as_user + ["dbus-monitor", "--session", "type='signal',sender='org.gestured.Agent1',member='Progress'"],
                     env=una.env, stdout=open(heard["una"], "w"), stderr=subprocess.STDOUT),
    subprocess.Popen(["setpriv", "--reuid=vic", "--regid=vic", "--init-groups", "dbus-monitor", "--system", "type='signal',member='Progress'"],
                     stdout=open(heard["vic"], "w"), stderr=subprocess.STDOUT),
]
drawer = subprocess.Popen(una.as_user + ["/usr/bin/python3", os.path.join(ROOT, "examples", "progress-drawer.py")], env=una.env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
said = []
threading.Thread(target=lambda: said.extend(drawer.stdout), daemon=True).start()
check("the example drawer runs in her session", wait_for(90, lambda: '"app_id": "org.gestured.Drawer"' in una.swaymsg("-t", "get_tree")))
una.swaymsg("[app_id=org.gestured.Drawer] fullscreen enable")
time.sleep(2)

# One finger from the top edge down to 89 mm of the 166, held there 6 s, on to 110 mm, lifted:
# 2 s of movement. The shot is taken while the finger rests, when the drawer has said it got
# there; a shot timed from the start came after the lift on a loaded machine (the drawer snapped open).
HELD_AT = 80
pull = Recording()
for i in range(101):
    pull.frame({0: (150, 1 + i * 1.1)}, advance_ms=20)
    if i == HELD_AT:
        pull.wait(6000)
pull.frame({0: None})
finger = (1 + 1.1 * HELD_AT) / (2159 / 13)  # where the finger rests, of the panel's height
progress_said = lambda: [float(line.split()[1]) for line in list(said) if line.split()[0] in ("began", "changed")]
playing = threading.Thread(target=panel.play, args=(pull.text(),))
playing.start()
resting = wait_for(15, lambda: any(value >= finger - 0.02 for value in progress_said()))
time.sleep(0.5)  # the drawer's next frame
os.makedirs("/run/job", exist_ok=True)
shot = "/run/job/progress-drawer-mid.png"
una.shot(shot)
still_resting = max(progress_said(), default=0) < finger + 0.02
playing.join()
time.sleep(1.5)

updates = [line for line in said if line.split()[0] in ("began", "changed", "ended", "cancelled")]
values = [float(line.split()[1]) for line in updates]
check(f"the drawer heard the pull: began, {len(updates) - 2} changes, ended ({updates[:1]} … {updates[-1:]})",
      len(updates) > 10 and updates[0].startswith("began") and updates[-1].startswith("ended"))
check(f"rising with the finger ({values[:3]} … {values[-3:]})", values == sorted(values) and values[-1] > 0.6 if values else False)
changes = read(heard["una"]).count("member=Progress")
check(f"her listener heard them on her session bus from her agent ({changes})", changes >= len(updates) > 0)
check(f"at most 60 a second (the finger moved 2 s: {changes})", changes <= 2 * 60 + 5)
check(f"another user's listener on the system bus heard none ({read(heard['vic']).count('member=Progress')})",
      read(heard["vic"]).count("member=Progress") == 0)
if os.path.exists(shot):
    width, height, channels, rows = png_pixels(shot)
    column = [bytes(rows[y][width // 2 * channels:][:3]) for y in range(height)]
    drawer_colour = lambda pixel: all(abs(a - b) <= 3 for a, b in zip(pixel, (51, 56, 64)))  # (0.2, 0.22, 0.25)
    drawn = next((y for y, pixel in enumerate(column) if not drawer_colour(pixel)), height)
    check(f"mid-pull the drawer reaches down to the finger: {drawn} of {height} rows, the finger at about {finger:.2f} "
          f"(said there: {resting}; shot before it moved on: {still_resting})",
          resting and still_resting and abs(drawn / height - finger) < 0.2)
check("at the lift, pulled past half way, it snaps open", bool(updates) and updates[-1].startswith("ended") and values[-1] >= 0.5)

for process in listeners + [drawer]:
    process.kill()
if failures():
    print("--- drawer\n" + "".join(said)[-1500:])
    print("--- agent\n" + read(una.agent_log)[-2000:])
    print("--- journal\n" + journal()[-2000:])
sys.exit(1 if failures() else 0)
