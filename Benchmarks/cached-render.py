#!/usr/bin/env python3
"""Whole-process times of a cached `quire render --pages N` (Benchmarks/layout-cache.md).

    python3 Benchmarks/cached-render.py QUIRE [QUIRE2 …] [--book BOOK] [--runs N] [--undrawn]

For each binary a fresh cache folder is filled (paginate, then one render of each page, and
the content-hash memo's 2 s settling wait), then `render BOOK -o DIR --pages N --cache DIR`
runs `--runs` times for N = 1, the middle page and the last page, the binaries alternating
run by run so that a change in the machine's load hits all of them alike. Prints min and
median wall-clock milliseconds per binary and page, and the load average before and after.
With `--undrawn` the chapters' display lists (.qdl) and scaled pictures (.qsi) are removed
before every timed run: each render is then the first of its chapter after `paginate`.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]
book = "../shared/corpus/moby-dick.epub"
runs = 15
if "--book" in args:
    i = args.index("--book")
    book = args[i + 1]
    del args[i:i + 2]
if "--runs" in args:
    i = args.index("--runs")
    runs = int(args[i + 1])
    del args[i:i + 2]
undrawn = "--undrawn" in args
if undrawn:
    args.remove("--undrawn")
binaries = args or [".build/release/quire"]
work = tempfile.mkdtemp(prefix="quire-cached-render-")


def forget_drawings(cache):
    for name in os.listdir(cache):
        if name.endswith((".qdl", ".qsi")):
            os.unlink(os.path.join(cache, name))


def run(quire, argv):
    subprocess.run([quire] + argv, check=True, stdout=subprocess.DEVNULL)


caches = {}
pages = None
for k, quire in enumerate(binaries):
    cache = os.path.join(work, f"cache-{k}")
    caches[quire] = cache
    out = subprocess.run([quire, "paginate", book, "--cache", cache], check=True,
                         capture_output=True, text=True).stdout
    pages = int(out.split()[1])
time.sleep(2.5)  # the content-hash memo is written once the book has been unchanged 2 s
numbers = (1, pages // 2, pages)
for quire in binaries:
    for n in numbers:
        run(quire, ["render", book, "-o", os.path.join(work, "out"), "--pages", str(n),
                    "--cache", caches[quire]])
print(f"load average before: {os.getloadavg()}")
times = {(q, n): [] for q in binaries for n in numbers}
for _ in range(runs):
    for n in numbers:
        for quire in binaries:
            out = os.path.join(work, "out")
            if undrawn:
                forget_drawings(caches[quire])
            start = time.perf_counter()
            run(quire, ["render", book, "-o", out, "--pages", str(n), "--cache", caches[quire]])
            times[(quire, n)].append((time.perf_counter() - start) * 1000)
print(f"load average after: {os.getloadavg()}")
print("| binary | page | runs | min ms | median ms |")
print("|---|---:|---:|---:|---:|")
for quire in binaries:
    for n in numbers:
        t = times[(quire, n)]
        print(f"| {quire} | {n} | {len(t)} | {min(t):.1f} | {statistics.median(t):.1f} |")
shutil.rmtree(work)
