#!/usr/bin/env python3
"""Whole-process times of quire with and without the layout cache (Benchmarks/layout-cache.md).

    python3 Benchmarks/layout-cache.py [QUIRE] [BOOK]   (defaults: .build/release/quire, moby-dick)

Each command runs several times; min and median wall-clock milliseconds are printed. The cache
is a fresh temporary folder, filled by the first (cold) run.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

quire = sys.argv[1] if len(sys.argv) > 1 else ".build/release/quire"
book = sys.argv[2] if len(sys.argv) > 2 else "../shared/corpus/moby-dick.epub"
cache = tempfile.mkdtemp(prefix="quire-lc-bench-")
out = tempfile.mkdtemp(prefix="quire-lc-out-")


def timed(label, args, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([quire] + args, check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    print(f"| {label} | {runs} | {min(times):.0f} | {statistics.median(times):.0f} |")
    return times


print("| command | runs | min ms | median ms |")
print("|---|---:|---:|---:|")
timed("quire --version (process start)", ["--version"], 10)
timed("paginate, --cache off", ["paginate", book, "--cache", "off"], 3)
timed("paginate, cold (fills the cache)", ["paginate", book, "--cache", cache], 1)
timed("paginate, cached", ["paginate", book, "--cache", cache], 10)
pages = int(subprocess.run([quire, "paginate", book, "--cache", cache], capture_output=True,
                           text=True).stdout.split()[1])
timed("render --pages 400, --cache off", ["render", book, "-o", out, "--pages", "400", "--cache", "off"], 3)
for n in (1, pages // 2, pages):
    timed(f"render --pages {n}, cached", ["render", book, "-o", out, "--pages", str(n), "--cache", cache], 7)
shutil.rmtree(cache)
shutil.rmtree(out)
