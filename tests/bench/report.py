"""BENCHMARKS.md from one run of scripts/benchmarks: the pure core's tables (ordo-one,
markdown), the VM's figures (tests/bench/vm_bench.py, tests/bench/vm_keys.py,
tests/bench/vm_overlay.py, tests/bench/vm_feel.py, tests/bench/run-installed-memory) and
the studio's (tests/bench/studio_start.py).
    python3 tests/bench/report.py CORE.md VM.json KEYS.json OVERLAY.json COMMAND BINARY LEARN.txt STUDIO.json FEEL.json MEMORY.json
"""
import datetime, json, os, platform, re, statistics, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from latency_summary import summary  # noqa: E402

core_path, vm_path, keys_path, overlay_path, command, binary = sys.argv[1:7]
learn_path, studio_path, feel_path, memory_path = sys.argv[7:11]
studio, feel, installed = (json.load(open(path)) for path in (studio_path, feel_path, memory_path))
vm = json.load(open(vm_path))
keys = json.load(open(keys_path))
overlay = json.load(open(overlay_path))


def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def ms(value):
    return "—" if value is None else f"{value:.1f} ms"


def ratio(a, b):
    return "—" if a is None or not b else f"{a / b:.2f}"


def p50_p99(figures):
    """A summary's two figures, as one cell of a table: "4.3 ms / 6.1 ms"."""
    return f"{ms(figures['p50_ms'])} / {ms(figures['p99_ms'])}"


def ratios(a, b):
    """A's p50 and p99 over B's, as one cell: "1.02 / 0.97"."""
    return f"{ratio(a['p50_ms'], b['p50_ms'])} / {ratio(a['p99_ms'], b['p99_ms'])}"


print("# Benchmarks")
print()
print(f"Made by `{command}` on {datetime.date.today().isoformat()}: one run, nothing edited.")
print()
print(f"- Machine: {cpu_model()}, {os.cpu_count()} cores, Linux {platform.release()}")
helper = os.path.join(os.path.dirname(binary), "gestured-parse-config")
print(f"- Build: release (`make build`): Swift runtime linked statically, lld, RELR relocations, no exported symbols; "
      f"gestured {os.path.getsize(binary) / 1e6:.1f} MB and its "
      f"TOML parser's process {os.path.getsize(helper) / 1e6:.1f} MB, with their symbols (the package strips them)")
print("- The pure core's figures are this machine's; the daemon's were measured in the VM "
      "(`scripts/vm-run`: Debian's kernel under QEMU, software emulation, 2 CPUs), where "
      "everything runs many times slower than on hardware: compare gestured with lisgd there, "
      "not with the core's figures.")
print()
FRAME_MS = 1000 / 60


def within_a_frame(figures, floor):
    """Whether FIGURES' p99 is within a frame (16.7 ms) of FLOOR's."""
    return figures["p99_ms"] is not None and floor["p99_ms"] is not None and figures["p99_ms"] - floor["p99_ms"] <= FRAME_MS


print("## What a person feels")
print()
print(f"Measured in the VM ({feel['rounds']} rounds, `tests/bench/vm_feel.py`), each beside its floor in the same boot. "
      "**Pass-through**: a one-finger drag (2 s, a frame every 10 ms, 200 frames) and 20 taps (60 ms down) on an isolated "
      "panel, from each frame's write to the panel (the monotonic clock read just before its SYN_REPORT is written, which the kernel stamps) "
      "to the event libinput hands over from the twin (`tests/bench/libinput_events.c`: libinput's path backend, as a "
      "compositor reads the device): the drag's frames (TOUCH_FRAME), the taps' TOUCH_DOWN and TOUCH_UP. The floor is "
      "`tests/bench/twin_floor.c`: it grabs the panel and writes each event to a uinput copy at once (libevdev, a "
      "blocking read, nothing decided). gestured with a three-finger swipe bound (nothing one finger does can be a "
      "gesture); with a three-finger pan bound to the virtual touchpad (`delays_touches_began`, on by default with "
      "`touchpad`, holds from three fingers); with a one-finger long press, which could claim every touch (its lift "
      "waits for the long press to fail: `delays_touches_ended`); and with that long press and "
      "`delays_touches_began = true`, which holds each touch back until the long press fails (6 mm of movement, or the "
      "lift). A frame held back is timed from the touch's first frame. Cells: p50 / p99; ÷ floor: gestured's over the "
      "floor's.")
print()
print("| pass-through | drag frames | ÷ floor | tap down | ÷ floor | tap up | ÷ floor | p99 within a frame of the floor | missed (drag, down, up) |")
print("|---|---|---|---|---|---|---|---|---|")
floor = feel["pass_through"]["floor"]
names = {"floor": "floor (twin_floor.c)", "nothing_claims": "gestured, a three-finger swipe bound",
         "touchpad": "gestured, a three-finger touchpad pan (delays_touches_began from 3 fingers)",
         "may_claim": "gestured, a one-finger long press bound", "may_claim_delays_began": "the same, delays_touches_began = true"}
for case, figures in feel["pass_through"].items():
    cells = []
    for kind in ("drag", "tap_down", "tap_up"):
        cells += [p50_p99(figures[kind]), "" if case == "floor" else ratios(figures[kind], floor[kind])]
    within = "" if case == "floor" else ("yes" if all(within_a_frame(figures[k], floor[k]) for k in ("drag", "tap_down", "tap_up")) else "no")
    missed = ", ".join(str(figures[k]["missed"]) for k in ("drag", "tap_down", "tap_up"))
    print(f"| {names.get(case, case)} | {' | '.join(cells)} | {within} | {missed} |")
print()
lag = feel["touchpad_lag"]
print(f"**The touchpad behind the fingers**: a three-finger pan of 3 s (a frame every 10 ms) bound with `touchpad = true`, "
      f"{lag['pans']} times; from each panel frame's write to the GESTURE_SWIPE_UPDATE libinput makes of the frame "
      "gestured's virtual touchpad writes for it (a desktop's animation follows these), each update laid to the last panel "
      "frame written before the kernel stamped the touchpad's frame.")
print()
print("| touchpad lag | p50 | p99 | updates | within a frame (16.7 ms) at p99 |")
print("|---|---|---|---|---|")
print(f"| panel frame → GESTURE_SWIPE_UPDATE | {ms(lag['p50_ms'])} | {ms(lag['p99_ms'])} | {lag['n']} | "
      f"{'yes' if lag['p99_ms'] is not None and lag['p99_ms'] <= FRAME_MS else 'no'} |")
print()
print("**The overlay behind the fingers**: a one-finger drag of 200 mm (a frame every 10 ms, 8.7 pixels apart on a "
      "1280-pixel screen), from each frame's write to where its dot is first shown, the frame told by where the newest "
      "dot is. X11: drawn by the session agent on Xvfb, to the X server's damage (`tests/bench/x_damage.c`: XDamage on "
      "the root window, raw rectangles, as a compositor follows a screen). Layer shell: drawn by the agent's helper "
      "`gestured-overlay` in headless sway (pixman, 1280×800), to the commit that shows the dot as the helper sends it "
      "to sway (`tests/bench/overlay_commits.c`, loaded into the helper, reads the committed buffer's row after each "
      "flush). The overlay's updates go out at most 240 a second, the latest replacing one that waits; a frame not drawn "
      "as it came is shown within the next, and one the helper skips while sway still holds all three of its buffers too.")
print()
print("| overlay lag | p50 | p99 | frames drawn as they came | within a frame (16.7 ms) at p99 |")
print("|---|---|---|---|---|")
for label, o in (("X11: panel frame → the trail's damage", overlay["overlay_lag"]),
                 ("layer shell (sway): panel frame → the commit", overlay["layer_shell_lag"])):
    print(f"| {label} | {ms(o['p50_ms'])} | {ms(o['p99_ms'])} | {o['n']} of {o['n'] + o['missed']} | "
          f"{'yes' if o['p99_ms'] is not None and o['p99_ms'] <= FRAME_MS else 'no'} |")
print()
g, l = installed["gestured"], installed["lisgd"]
print("**Memory as installed** (`tests/bench/run-installed-memory`): gestured from its `.deb` (what `make deb` builds, "
      "stripped) and Debian's lisgd 0.3.7 from its own, both installed onto an ext4 disk in the VM (not the guest's "
      "tmpfs, where a program's pages count as shared memory), caches dropped after `sync` so that both read their "
      "programs back from it, clean. The service started by systemd with a one-finger swipe bound to a command; lisgd "
      "with the same swipe. PSS (its share of what is resident) and anonymous memory (what it allocated itself), from "
      f"`smaps_rollup`, idle 3 s after the start, and after 1,000 swipes ({g['recognized']} recognized, each running "
      f"`true`) and, for gestured, {g['reloads']} reloads (`systemctl reload`).")
print()
print("| memory as installed | gestured | lisgd | gestured ÷ lisgd |")
print("|---|---|---|---|")
for label, key in (("idle", "idle"), ("after 1,000 swipes (gestured: and 100 reloads)", "after")):
    print(f"| PSS, {label} | {g[key]['pss'] / 1024:.1f} MB | {l[key]['pss'] / 1024:.1f} MB | {g[key]['pss'] / l[key]['pss']:.1f} |")
    print(f"| anonymous, {label} | {g[key]['anonymous'] / 1024:.2f} MB | {l[key]['anonymous'] / 1024:.2f} MB | "
          f"{g[key]['anonymous'] / l[key]['anonymous']:.1f} |")
b = installed["binary_kb"]
print(f"| the program on disk | {b['gestured'] / 1024:.1f} MB | {b['lisgd']} KB | |")
print()
print("## The daemon in a real kernel, beside lisgd")
print()
print(f"A 1-finger right swipe (150 mm in 0.3 s) written to a uinput touchscreen, {vm['swipes']} times a "
      "round; the time from the kernel's time stamp on the frame that lifts the finger (read "
      "from the panel) to the first instruction of the bound command (`tests/bench/stamp.c`, linked statically, "
      "appending the monotonic clock), or to a D-Bus client receiving the Gesture signal "
      "(`tests/bench/listen.c`, sd-bus, stamped on arrival). lisgd 0.3.7 "
      "(`-g 1,LR,*,*,R,stamp`) on the same panel in the same boot, between gestured's runs. "
      "gestured: one binding, `command` and `signal = true`; direct = plain words "
      "(posix_spawnp), shell = with quotes (`/bin/sh -c`, as lisgd starts its commands).")
print()
print("| round | gestured direct p50 / p99 | gestured shell p50 / p99 | lisgd p50 / p99 | direct ÷ lisgd p50 / p99 | D-Bus signal p50 / p99 | missed (direct, shell, lisgd, signal) |")
print("|---|---|---|---|---|---|---|")
for i, r in enumerate(vm["latency_rounds"], 1):
    d, s, l, b = r["direct"], r["shell"], r["lisgd"], r["signal"]
    print(f"| {i} | {p50_p99(d)} | {p50_p99(s)} | {p50_p99(l)} | {ratios(d, l)} | {p50_p99(b)} | "
          f"{d['missed']}, {s['missed']}, {l['missed']}, {b['missed']} |")
print()
floor = vm["signal_floor"]
print(f"The bus alone (`tests/bench/emit.c`, a signal like gestured's sent from a small sd-bus client "
      f"to the same listener through the same dbus-daemon, {floor['n']} times): "
      f"{ms(floor['p50_ms'])} p50, {ms(floor['p99_ms'])} p99.")
print()
print("The signal alone: a binding with `signal = true` and no command (none starts beside it); the bus alone "
      "again; and the whole path's floor, a small C program that reads the panel and signals each lift of a "
      "right swipe (`tests/bench/relay.c`: read(2) on the event node, the very message gestured sends, sd-bus), "
      "each alone, in blocks of a third of the round that take turns (gestured, floor, floor, gestured, gestured, "
      "floor), 120 swipes of each a round: this VM's speed drifts by tens of percent over minutes and falls on both "
      "alike. Not both at once: in this VM a process woken on an idle virtual CPU may wait milliseconds to run, on a "
      "busy one far less, so each one's work on a lift would speed the other's signal on its way. The last row pools "
      "the rounds:")
print()
print("| round | signal with the command p50 / p99 | signal alone p50 / p99 | the bus alone p50 / p99 | "
      "the whole path's floor p50 / p99 | alone ÷ floor p50 / p99 |")
print("|---|---|---|---|---|---|")
for i, r in enumerate(vm["latency_rounds"], 1):
    with_command, alone, bus, relay = r["signal"], r["signal_alone"], r["signal_floor"], r["signal_relay"]
    print(f"| {i} | {p50_p99(with_command)} | {p50_p99(alone)} | {p50_p99(bus)} | {p50_p99(relay)} | {ratios(alone, relay)} |")
pooled_alone = [x for r in vm["latency_rounds"] for x in r.get("signal_alone_ms", [])]
pooled_floor = [x for r in vm["latency_rounds"] for x in r.get("signal_relay_ms", [])]
if pooled_alone and pooled_floor:
    alone, relay = summary(pooled_alone, len(pooled_alone)), summary(pooled_floor, len(pooled_floor))
    print(f"| both | | {p50_p99(alone)} | | {p50_p99(relay)} | {ratios(alone, relay)} |")
print()
starts = vm["starts"]


def median(key):
    return statistics.median(start[key] for start in starts)


def spread(key, unit):
    values = sorted(start[key] for start in starts)
    return f"{statistics.median(values):.2f} {unit} ({values[0]:.2f}–{values[-1]:.2f})"


reloads = sorted(vm["reload_ms"])
print(f"Footprint and start: {len(starts)} starts of each with one touchscreen, gestured's and lisgd's in turn; medians, "
      "with the range in brackets (this VM's CPU times differ by up to twice from one start to the next).")
print()
print("| footprint and start | gestured | lisgd |")
print("|---|---|---|")
print(f"| resident, idle, one touchscreen (3 s after the start) | {median('rss_kb') / 1024:.1f} MB | {median('lisgd_rss_kb') / 1024:.1f} MB |")
print(f"| resident after the first round of swipes | {vm['rss_after_swipes_kb'] / 1024:.1f} MB | |")
idle, after = vm["memory_idle_kb"], vm["memory_after_activity_kb"]
lisgd_idle, lisgd_after = vm["lisgd_memory_idle_kb"], vm["lisgd_memory_after_activity_kb"]
print(f"| PSS, idle, one touchscreen | {idle['pss'] / 1024:.1f} MB | {lisgd_idle['pss'] / 1024:.1f} MB |")
print(f"| anonymous, idle | {idle['anonymous'] / 1024:.2f} MB | {lisgd_idle['anonymous'] / 1024:.2f} MB |")
print(f"| PSS after 1,000 taps ({vm['activity_taps_recognized']} recognized, each a command and a signal) and 100 reloads "
      f"(lisgd: the taps) | {after['pss'] / 1024:.1f} MB | {lisgd_after['pss'] / 1024:.1f} MB |")
print(f"| anonymous after them | {after['anonymous'] / 1024:.2f} MB | {lisgd_after['anonymous'] / 1024:.2f} MB |")
four = vm["rss_four_screens_50_bindings_kb"]
print(f"| resident, 4 touchscreens and 50 bindings | {'—' if four is None else f'{four / 1024:.1f} MB'} | |")
print(f"| CPU time to start (user + system: gestured at READY=1, lisgd 3 s after its start) | {spread('cpu_s', 's')} | {spread('lisgd_cpu_s', 's')} |")
print(f"| the same with the configuration's parsing helper (a child gestured waits for) | {spread('cpu_with_helper_s', 's')} | |")
print(f"| start → READY=1 (one touchscreen; 4 and 50 bindings) | {median('ready_ms'):.1f} ms; {ms(vm['four_screens_start_to_ready_ms'])} | |")
print(f"| reload, SIGHUP → READY=1 (4 touchscreens, 50 bindings; 10 times) p50 / p99 | {statistics.median(reloads):.1f} ms / {reloads[-1]:.1f} ms | |")
print(f"| context switches over 10 s idle | {vm['context_switches_10s_idle']} | |")
print()
print("Where the idle resident size is (`/proc/PID/smaps`, one touchscreen, by file):")
print()
print("| mapping | resident |")
print("|---|---|")
for kb, name in vm["rss_by_mapping"][:12]:
    print(f"| {name} | {kb} KB |")
print()
print("```")
print("\n".join(l for l in vm["smaps_idle_one_screen"].splitlines()[1:] if re.match(r"(Rss|Pss|Shared|Private|Anonymous)", l)))
print("```")
print()
print("## Keys: gestured's virtual keyboard beside ydotool")
print()
print(f"The same swipe, {keys['swipes']} times, bound to `keys = \"ctrl+Right\"` (gestured's own virtual "
      "keyboard) and then to `command = \"ydotool key ctrl+Right\"` (Debian 12's ydotool 0.1.8, which has "
      "no ydotoold: each call makes its own uinput device, waits for it and writes), in the same boot; the "
      "time from the lift's frame to the first key press a reader of the input devices gets (the kernel's time "
      "stamp on the event, as libinput reads it; `tests/bench/vm_keys.py`).")
print()
print("| binding | p50 | p99 | missed |")
print("|---|---|---|---|")
g, y = keys["keys"], keys["ydotool"]
print(f"| `keys` | {ms(g['p50_ms'])} | {ms(g['p99_ms'])} | {g['missed']} |")
if y:
    print(f"| `ydotool key` | {ms(y['p50_ms'])} | {ms(y['p99_ms'])} | {y['missed']} |")
    print(f"| ydotool ÷ keys | {ratio(y['p50_ms'], g['p50_ms'])} | {ratio(y['p99_ms'], g['p99_ms'])} | |")
else:
    print("| `ydotool key` | not installed | | |")
print()
t = keys.get("touchpad")
if t:
    print(f"The virtual touchpad (`touchpad = true` on a three-finger pan, the same {keys['swipes']} times, three "
          "fingers 80 mm to the right): from each frame of the panel to the first frame gestured's touchpad makes "
          f"of it, both kernel time stamps: {ms(t['p50_ms'])} p50, {ms(t['p99_ms'])} p99 over {t['n']} of "
          f"{t['panel_frames']} panel frames (the frames before the pan begins make none).")
    print()
if studio:
    s, i = studio["start_s"], studio["idle"]
    print("## The studio")
    print()
    print(f"gestured-studio (release) beside a GTK 4 window with a button and an entry in C (`tests/bench/gtk_window.c`, "
          "drawn with GTK's cairo renderer as the studio's are), "
          f"in one headless sway on this machine, taking turns, {studio['rounds']} starts each: from exec to the window in "
          "sway's tree; then each started and left alone (12 s, for GTK's cursor blink to stop; no gestured running), "
          "over 10 s: its CPU ticks (100 a second) and wake-ups (the context switches of all its threads) "
          "(`tests/bench/studio_start.py`).")
    print()
    print("| | start p50 | start, slowest | idle 10 s: CPU ticks | idle 10 s: wake-ups | threads |")
    print("|---|---|---|---|---|---|")
    for name in ("studio", "GTK 4 window"):
        print(f"| {name} | {s[name]['p50'] * 1000:.0f} ms | {s[name]['most'] * 1000:.0f} ms | {i[name]['ticks']} | "
              f"{i[name]['wakeups']} | {i[name]['threads']} |")
    print(f"| studio ÷ GTK 4 window | {ratio(s['studio']['p50'], s['GTK 4 window']['p50'])} | "
          f"{ratio(s['studio']['most'], s['GTK 4 window']['most'])} | | | |")
    print()
print("## The overlay")
print()
print(f"The swipe's command with `overlay = true` and without, {overlay['blocks']} blocks of {overlay['swipes']} swipes each, "
      "taking turns in one boot; the session agent drawing every update on an X display (Xvfb) meanwhile "
      "(`tests/bench/vm_overlay.py`: a private bus as the system bus, a stand-in logind, the agent of the session in front).")
print()
print("| overlay | p50 | p99 | missed |")
print("|---|---|---|---|")
for name in ("off", "on"):
    o = overlay[name]
    print(f"| {name} | {ms(o['p50_ms'])} | {ms(o['p99_ms'])} | {o['missed']} |")
print(f"| on ÷ off | {ratio(overlay['on']['p50_ms'], overlay['off']['p50_ms'])} | {ratio(overlay['on']['p99_ms'], overlay['off']['p99_ms'])} | |")
print()
print(f"The agent over ten idle seconds between gestures (the overlay on, 2 s after three swipes were drawn): "
      f"{overlay['agent_idle_ticks_10s']} ticks of CPU time "
      f"({overlay['ticks_per_second']} a second), woken {overlay.get('agent_idle_wake_ups_10s', '?')} times "
      f"(its voluntary context switches){'' if overlay['agent_drew'] else '; it could not draw'}.")
print()
learned = open(learn_path).read()
if learned:
    print("## Learned shapes (scripts/check-learn)")
    print()
    print("The 16 shapes of the $1 paper, each learned from 3 of a person's strokes (`gestured learn`) and scored "
          "(`gestured eval`) on their other strokes, then on the other people's of the same set: with a finger "
          "(`strokes-finger`, their first 3 of each shape, scored on the other 7) and with a stylus (`strokes`, the "
          "$1 paper's own logs: their first 3 at medium speed, scored on the other 27 of all three speeds). A learned "
          "shape's false firings: the other 15 shapes' strokes it takes.")
    for section in re.split(r"^## ", learned, flags=re.M)[1:]:
        title = section.splitlines()[0]
        print()
        print(f"{title[0].upper()}{title[1:]}:")
        print()
        print("| person | their other strokes recognized | most false firings of one shape | the other people's strokes recognized |")
        print("|---|---|---|---|")
        for person, right, total, percent in re.findall(r"^(\S+), learned from 3 strokes a shape, on their other strokes: "
                                                      r"(\d+) of (\d+) recognized as themselves \(([\d.]+) %\)", section, re.M):
            false = re.search(rf"^{re.escape(person)}: recall [\d.]+ %; false firings at most ([\d.]+) %", section, re.M)
            others = re.search(rf"^{re.escape(person)}'s learned shapes on the other people's strokes: (\d+) of (\d+) "
                               r"recognized as themselves \(([\d.]+) %\)", section, re.M)
            print(f"| {person} | {right} of {total} ({percent} %) | {false.group(1) if false else '?'} % | "
                  f"{others.group(1) + ' of ' + others.group(2) + ' (' + others.group(3) + ' %)' if others else '?'} |")
    verdict = re.search(r"^(ok  |FAIL) learned from 3 strokes", learned, re.M)
    print()
    print(f"Every person at 97 % or more with at most 1 % false firings: {'yes' if verdict and verdict.group(1) == 'ok  ' else 'no'}.")
    print()
print("## The pure core, on this machine (ordo-one/benchmark)")
print()
print("One iteration of a `throughput` benchmark is one kernel event through the whole "
      "pipeline (decoder, the built-in configuration's ten recognizers, arbiter, bindings): "
      "its throughput row is events a second, and Malloc (total) the heap allocations an event. "
      "`frame to actions` is one three-finger frame (ten events); `stroke lift` the lift of a "
      "checkmark, where the stroke recognizers judge it; `stepped rotation` one frame of a rotation "
      "bound to keys in steps, each frame crossing a step (its Malloc row: the allocations a key action costs).")
print()
# ordo-one's markdown: keep the tables, drop its progress lines and banner.
text = open(core_path).read()
start = text.find("## StepBenchmarks")
print((text[start:] if start >= 0 else text).strip())
