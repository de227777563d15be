#!/usr/bin/env python3
"""`gestured replay --svg` pictures opened in a headless Chromium: a checkmark, a failed
checkmark (too small) and a four-finger drag are drawn, screenshot, and the screenshots'
pixels checked: each touch's trace in its colour, and the labels (green for what fired,
red for why the rest failed). The screenshots stay in OUTDIR (default: a new temporary
directory, printed) for a person to look at; keep them out of the repository.

    tests/svg_screenshots.py GESTURED [OUTDIR]
"""
import os, re, struct, subprocess, sys, tempfile, zlib

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.normpath(os.path.join(here, "..", "Core", "Tests", "Fixtures"))
BLUE, RED, GREEN, PURPLE = (0x1f, 0x77, 0xb4), (0xd6, 0x27, 0x28), (0x2c, 0xa0, 0x2c), (0x94, 0x67, 0xbd)
FIRED, FAILED = (0x1a, 0x7f, 0x37), (0xb4, 0x23, 0x18)

def png_pixels(path):
    """The RGB(A) rows of an 8-bit, non-interlaced PNG, as Chromium writes them."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = 4 if colour == 6 else 3
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    return width, height, channels, rows

def count_colour(image, rgb, columns, tolerance=24):
    """Pixels within `tolerance` of a colour on each channel (antialiased edges excluded),
    in a range of columns."""
    width, height, channels, rows = image
    n = 0
    for row in rows:
        for x in range(columns.start * channels, min(columns.stop, width) * channels, channels):
            if abs(row[x] - rgb[0]) <= tolerance and abs(row[x + 1] - rgb[1]) <= tolerance and abs(row[x + 2] - rgb[2]) <= tolerance:
                n += 1
    return n

def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    gestured = os.path.abspath(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="gestured-svg-")
    os.makedirs(out, exist_ok=True)
    small = os.path.join(out, "small.toml")
    with open(small, "w") as f:
        f.write('[[gesture]]\nname = "confirm"\ntype = "checkmark"\nmin_size_mm = 30\n')
    # name, config, the traces' colours that must show on the panel and the labels' beside
    # it (with a least pixel count), the labels' that must not.
    cases = [
        ("checkmark", None, [(BLUE, 300)], [(BLUE, 50), (FIRED, 150)], []),
        ("checkmark-too-small", small, [(BLUE, 100)], [(BLUE, 50), (FAILED, 150)], [FIRED]),
        ("four-finger-drag", None, [(BLUE, 300), (RED, 300), (GREEN, 300), (PURPLE, 300)],
         [(BLUE, 50), (RED, 50), (GREEN, 50), (PURPLE, 50), (FAILED, 300)], [FIRED]),
    ]
    failures = 0
    for name, config, traces, labels, absent in cases:
        svg, png = os.path.join(out, name + ".svg"), os.path.join(out, name + ".png")
        subprocess.run([gestured, "replay", "--svg", svg, *(["--config", config] if config else []),
                        os.path.join(fixtures, name + ".evemu")], check=True, stdout=subprocess.DEVNULL)
        head = open(svg).read(300)
        width, height = (round(float(v)) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', head).groups())
        left, panel = (float(v) for v in re.search(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', open(svg).read()).groups())
        on_panel, beside = range(0, round(left + panel) + 10), range(round(left + panel) + 10, width)
        if os.path.exists(png):
            os.remove(png)
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={width},{height}", f"--screenshot={png}", "file://" + svg],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        image = png_pixels(png)
        for where, columns, wanted in (("on the panel", on_panel, traces), ("beside it", beside, labels)):
            for rgb, least in wanted:
                n = count_colour(image, rgb, columns)
                ok = n >= least
                failures += not ok
                print(f"{'ok  ' if ok else 'FAIL'} {name}: {n} pixels of #{bytes(rgb).hex()} {where} (at least {least})")
        for rgb in absent:
            n = count_colour(image, rgb, beside)
            failures += n > 0
            print(f"{'ok  ' if n == 0 else 'FAIL'} {name}: {n} pixels of #{bytes(rgb).hex()} (none expected)")
    print(f"screenshots in {out}")
    sys.exit(1 if failures else 0)

if __name__ == "__main__":
    main()
