#!/usr/bin/env bash
# Reproduces every number in the README's Benchmarks section. Run on a quiet machine:
#   bash Benchmarks/run.sh            (needs: swift, mupdf-tools, hyperfine)
# Prints markdown; the README holds the last run's output with its machine and date.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${CORPUS:-${QUIRE_CORPUS:-../shared/corpus}}
BENCH=${BENCH:-../shared/bench}
swift build -c release --product quire >/dev/null
Q=.build/release/quire
echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  quire $(git rev-parse --short HEAD)  $(mutool -v 2>&1 | head -1)"
echo
echo '### Render and paginate vs mutool (moby-dick, 600x800, 16 px, gray PNG)'
echo '```'
python3 "$BENCH/compare-mutool.py" "$CORPUS/moby-dick.epub" --quire "$Q" --runs 5
python3 "$BENCH/compare-mutool.py" "$CORPUS/moby-dick.epub" --quire "$Q" --runs 5 --task paginate
echo '```'
echo
echo '### Stage timings and peak memory (quire bench, moby-dick)'
echo '```'
"$Q" bench "$CORPUS/moby-dick.epub" --repeat 3
echo '```'
echo
echo '### First page on disk (quire render moby-dick --pages 1)'
echo '```'
rm -rf /tmp/quire-first && hyperfine -N --warmup 2 --runs 15 -p 'rm -rf /tmp/quire-first' \
  "$Q render $CORPUS/moby-dick.epub -o /tmp/quire-first --pages 1" 2>&1 | grep -E 'Time|Range'
echo '```'
echo
echo '### Peak RSS rendering all of moby-dick'
echo '```'
rm -rf /tmp/quire-rss
/usr/bin/time -f 'max RSS %M KB, wall %e s' "$Q" render "$CORPUS/moby-dick.epub" -o /tmp/quire-rss 2>&1 | tail -1
echo '```'
echo
echo '### Reading simulation (page cache)'
echo '```'
"$Q" bench "$CORPUS/moby-dick.epub" --reading --turns 200 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["reading"])'
echo '```'
echo
echo '### 60-frame 600x800 curl to PNG frames'
echo '```'
hyperfine -N --warmup 1 --runs 5 -p 'rm -rf /tmp/quire-curl' \
  "$Q flip samples/childrens-literature.epub --page 5 --frames 60 -o /tmp/quire-curl" 2>&1 | grep -E 'Time|Range'
echo '```'
