#!/usr/bin/env python3
"""Does Chromium agree with Quire on which elements a selector matches?

The selector fixture (Tests/QuireIngestTests/Fixtures/chapters/css-selectors/OPS) colours
every element a selector test should match. This script loads a copy of the chapter in
headless Chromium with a small script appended that records getComputedStyle(el).color for
every element with an id, then reads Quire's colours for the same ids from the chapter's
document dump golden (anchors give each id's offset; the deepest block or run starting
there carries the colour) and prints the elements where the two disagree.

Usage: scripts/selector-oracle.py [--chromium PATH]
Exit status: 0 when every id agrees, 1 otherwise, 2 when Chromium is missing.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "Tests/QuireIngestTests/Fixtures/chapters/css-selectors/OPS")
DUMP = os.path.join(ROOT, "Tests/QuireIngestTests/Fixtures/dumps/css-selectors.txt")

PROBE = """
<script type="text/javascript"><![CDATA[
const out = {};
for (const el of document.querySelectorAll('[id]')) {
  const m = getComputedStyle(el).color.match(/\\d+/g).map(Number);
  const colour = '#' + m.slice(0, 3).map(v => v.toString(16).padStart(2, '0')).join('');
  out[el.id] = [colour, getComputedStyle(el).display];
}
const pre = document.createElementNS('http://www.w3.org/1999/xhtml', 'pre');
pre.id = 'oracle-result';
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
]]></script>
"""


def chromium_colours(chromium):
    with tempfile.TemporaryDirectory() as tmp:
        for name in os.listdir(FIXTURE):
            shutil.copy(os.path.join(FIXTURE, name), tmp)
        page = os.path.join(tmp, "selectors.xhtml")
        with open(page, encoding="utf-8") as f:
            text = f.read()
        with open(page, "w", encoding="utf-8") as f:
            f.write(text.replace("</body>", PROBE + "</body>"))
        dom = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
             "--virtual-time-budget=2000", "file://" + page],
            capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<pre id="oracle-result">(.*?)</pre>', dom, re.S)
    if not found:
        sys.exit("chromium produced no result")
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def quire_colours():
    """Per id: (colour of the deepest block starting at its offset, colour of the run there)."""
    anchors = {}
    at_offset = {}  # offset → colour of the deepest block line starting there
    runs = {}  # offset → colour of the run starting there (its block's when it has none)
    with open(DUMP, encoding="utf-8") as f:
        for line in f:
            if line.startswith("anchors "):
                for item in line.split()[1:]:
                    name, offset = item.rsplit("@", 1)
                    anchors[name] = int(offset)
                continue
            m = re.match(r"\s+(\S+).*?@(\d+)", line)
            if not m or m.group(1) == "generated":
                continue
            offset = int(m.group(2))
            colour = re.search(r"color=(#[0-9a-f]{6})", line)
            if m.group(1) == "text":
                runs[offset] = colour.group(1) if colour else at_offset.get(offset, "#000000")
                continue
            at_offset[offset] = colour.group(1) if colour else "#000000"
    return {
        name: (at_offset.get(offset, "#000000"), runs.get(offset, "#000000"))
        for name, offset in anchors.items()
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args()
    if not shutil.which(args.chromium) and not os.path.exists(args.chromium):
        print("chromium not found", file=sys.stderr)
        return 2
    theirs = {}
    ours = {}
    quire = quire_colours()
    for k, (colour, display) in chromium_colours(args.chromium).items():
        if k not in quire or colour == "#0000ee":
            continue  # links: Chromium's UA colours them, Quire's (an e-reader's) does not
        theirs[k] = colour
        ours[k] = quire[k][1] if display == "inline" else quire[k][0]
    ids = sorted(set(theirs) & set(ours), key=lambda k: ours[k] + k)
    disagree = [k for k in ids if theirs[k] != ours[k]]
    matched = sum(1 for k in ids if theirs[k] != "#000000")
    for k in disagree:
        print(f"{k}: chromium {theirs[k]} quire {ours[k]}")
    print(f"{len(ids) - len(disagree)}/{len(ids)} elements agree "
          f"({matched} matched by a test selector in Chromium)")
    return 0 if not disagree else 1


if __name__ == "__main__":
    sys.exit(main())
