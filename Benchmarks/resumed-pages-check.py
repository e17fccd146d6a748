#!/usr/bin/env python3
"""One-off check of resumed layout (Benchmarks/layout-cache.md, session 12): every page of a
book rendered alone through a filled layout cache equals the page of one uncached render.

    python3 Benchmarks/resumed-pages-check.py [QUIRE] [--book BOOK] [--size WxH]

After `paginate --cache DIR`, for every page N: the display lists (.qdl) and scaled pictures
(.qsi) are removed, `render --pages N --cache DIR` runs (the chapter resumes from the
checkpoint nearest before N, or is laid out whole) and writes N's display lists, then the
same render runs again (it must decode them). Both PNGs must be byte-identical to page N of
`render --cache off`. Prints the pages compared, the mismatches and the seconds taken; exits
1 on a mismatch.
"""

import os
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]
book = "../shared/corpus/moby-dick.epub"
size = []
if "--book" in args:
    i = args.index("--book")
    book = args[i + 1]
    del args[i:i + 2]
if "--size" in args:
    i = args.index("--size")
    size = ["--size", args[i + 1]]
    del args[i:i + 2]
quire = args[0] if args else ".build/release/quire"
work = tempfile.mkdtemp(prefix="quire-resumed-check-")
cache = os.path.join(work, "cache")
begun = time.time()


def run(argv):
    subprocess.run([quire] + argv + size, check=True, stdout=subprocess.DEVNULL)


full = os.path.join(work, "full")
run(["render", book, "-o", full, "--cache", "off"])
out = subprocess.run([quire, "paginate", book, "--cache", cache] + size, check=True,
                     capture_output=True, text=True).stdout
pages = int(out.split()[1])
digits = max(4, len(str(pages)))
bad = []
for n in range(1, pages + 1):
    for name in os.listdir(cache):
        if name.endswith((".qdl", ".qsi")):
            os.unlink(os.path.join(cache, name))
    name = f"page-{n:0{digits}d}.png"
    with open(os.path.join(full, name), "rb") as f:
        expected = f.read()
    for second in (False, True):
        folder = os.path.join(work, "one")
        run(["render", book, "-o", folder, "--pages", str(n), "--cache", cache])
        with open(os.path.join(folder, name), "rb") as f:
            if f.read() != expected:
                bad.append((n, "decoded" if second else "laid out"))
print(f"{book}: {pages} pages, each rendered twice through the cache; "
      f"{len(bad)} differ from the uncached render {bad[:20]}; {time.time() - begun:.0f} s")
sys.exit(1 if bad else 0)
