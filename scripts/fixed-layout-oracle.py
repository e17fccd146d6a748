#!/usr/bin/env python3
"""Fixed-layout oracle: a pre-paginated page drawn by Quire at `--size native` against the
same XHTML drawn by headless Chromium at the same viewport (issue #12).

Usage: scripts/fixed-layout-oracle.py BOOK [--tolerance PX] [--json REPORT] [--quire BIN]
       [--chromium BIN]

Quire side: `quire render BOOK --size native --color rgb`, every pre-paginated page (the
manifest's `layout`). Browser side: the chapter's XHTML loaded from the unpacked book in the
driver of scripts/browser-oracle.py (its fonts are the repository's fonts/), the device
metrics set to the page's size at scale 1, a PNG screenshot.

Compared: BOXES, not glyphs. Every colour that covers a near-solid rectangle in the
browser's picture (at least 400 pixels, 8 px on each side, filling 60 % of its bounding
box: backgrounds,
borders, images with flat areas — not antialiased text) is a box; its bounding box in
Quire's picture (pixels within 8 of the colour on every channel) must have each edge within
--tolerance px (2). Also reported: the share of pixels whose channels all agree within 40
(text and gradient rounding excluded from the verdict). Exit 0 when every box agrees, 1
otherwise, 2 when the harness itself failed. Standard library only.
"""

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import zlib
import struct
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("browser_oracle", ROOT / "scripts/browser-oracle.py")
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)


def decode_png(data):
    """8-bit RGB/RGBA PNG → (width, height, rows of (r, g, b) tuples)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"unsupported PNG type {ctype}/{depth}"
            channels = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        prev = line
    return width, height, rows


def boxes(rows, min_pixels=400, fill=0.6):
    """Colour → bounding box (x0, y0, x1, y1) for near-solid rectangles of one colour."""
    count, bbox = Counter(), {}
    for y, row in enumerate(rows):
        for x, px in enumerate(row):
            count[px] += 1
            b = bbox.get(px)
            bbox[px] = (x, y, x + 1, y + 1) if b is None else (
                min(b[0], x), min(b[1], y), max(b[2], x + 1), max(b[3], y + 1))
    out = {}
    for colour, n in count.items():
        x0, y0, x1, y1 = bbox[colour]
        # Thin runs are gradient columns or rules, not boxes.
        if n >= min_pixels and n >= fill * (x1 - x0) * (y1 - y0) and min(x1 - x0, y1 - y0) >= 8:
            out[colour] = bbox[colour]
    return out


def bbox_near(rows, colour, slack=8):
    x0 = y0 = 1 << 30
    x1 = y1 = -1
    for y, row in enumerate(rows):
        for x, px in enumerate(row):
            if all(abs(px[k] - colour[k]) <= slack for k in range(3)):
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + 1), max(y1, y + 1)
    return None if x1 < 0 else (x0, y0, x1, y1)


def compare(quire_png, browser_png, tolerance):
    qw, qh, q = decode_png(quire_png)
    bw, bh, b = decode_png(browser_png)
    if (qw, qh) != (bw, bh):
        return {"size": [qw, qh], "browserSize": [bw, bh], "boxes": [], "agree": False}
    results = []
    for colour, expected in sorted(boxes(b).items()):
        got = bbox_near(q, colour)
        worst = max(abs(e - g) for e, g in zip(expected, got)) if got else None
        results.append({"colour": "#%02x%02x%02x" % colour, "browser": expected, "quire": got,
                        "worst": worst, "agree": worst is not None and worst <= tolerance})
    same = sum(1 for y in range(qh) for x in range(qw)
               if all(abs(q[y][x][k] - b[y][x][k]) <= 40 for k in range(3)))
    return {"size": [qw, qh], "boxes": results, "pixelAgreement": round(same / (qw * qh), 4),
            "agree": bool(results) and all(r["agree"] for r in results)}


def run(args):
    work = Path(tempfile.mkdtemp(prefix="quire-fxl-oracle-"))
    out = work / "quire"
    cmd = [oracle.quire_binary(args.quire), "render", args.book, "-o", str(out), "--size",
           "native", "--color", "rgb"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise oracle.OracleError(f"quire render failed: {proc.stderr.strip()[:300]}")
    manifest = json.loads((out / "manifest.json").read_text())
    root = oracle.unpack_book(Path(args.book), work)
    binary = oracle.chromium_binary(args.chromium)
    if not binary:
        raise oracle.OracleError("no chromium binary")
    browser = oracle.Chromium(binary, work, 60)
    report = []
    try:
        for page in manifest["pages"]:
            if page.get("layout") != "pre-paginated":
                continue
            quire_png = (out / page["file"]).read_bytes()
            w, h, _ = decode_png(quire_png)
            browser.call("Emulation.setDeviceMetricsOverride",
                         {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": False})
            url, _ = oracle.chapter_url(root, page["href"])
            browser.call("Page.navigate", {"url": url},
                         wait_event="Page.loadEventFired")
            shot = browser.call("Page.captureScreenshot", {"format": "png"})
            import base64
            result = compare(quire_png, base64.b64decode(shot["data"]), args.tolerance)
            result.update(page=page["number"], href=page["href"])
            report.append(result)
    finally:
        browser.close()
    return report


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("book")
    p.add_argument("--tolerance", type=float, default=2)
    p.add_argument("--json")
    p.add_argument("--quire")
    p.add_argument("--chromium")
    args = p.parse_args(argv)
    try:
        report = run(args)
    except oracle.OracleError as e:
        print(f"fixed-layout-oracle: {e}", file=sys.stderr)
        return 2
    for r in report:
        bad = [b for b in r["boxes"] if not b["agree"]]
        print(f"page {r['page']} {r['href']}: {len(r['boxes']) - len(bad)}/{len(r['boxes'])} "
              f"boxes within {args.tolerance} px, pixels {r.get('pixelAgreement')}")
        for b in bad:
            print(f"  {b['colour']}: browser {b['browser']} quire {b['quire']}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0 if report and all(r["agree"] for r in report) else 1


if __name__ == "__main__":
    sys.exit(main())
