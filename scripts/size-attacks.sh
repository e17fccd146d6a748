#!/bin/bash
# The size-attack table of issue #9 at full size: builds `quire` in release, generates every
# class (Tests/QuireIngestTests/Fixtures/make-size-attacks.py --scale full), runs each under
# `ulimit -v` and `/usr/bin/time -v` with a wall-clock timeout, and prints a Markdown table
# (class, command, exit status or signal, wall s, peak RSS MB, stderr) to stdout.
#
#   scripts/size-attacks.sh [--scale full|ci] [--only a,b] [--timeout S] [--vmem-gb G]
#                           [--no-build] [--keep]
#
# Environment: QUIRE (a quire binary; skips the build), WORK (inputs and outputs; default a
# fresh mktemp -d, removed at the end unless --keep).
# Outcomes: "exit N" or "signal NAME"; "timeout" when the wall-clock limit stopped it (SIGTERM,
# SIGKILL 5 s later; `timeout` reaps quire, so its peak RSS is still counted).
# Each case's output folder is checked for temp files left behind (`*.tmp*`) after the run.
set -euo pipefail

scale=full only="" default_limit=120 vmem_gb=4 build=1 keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --timeout) default_limit=$2; shift 2 ;;
    --vmem-gb) vmem_gb=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --keep) keep=1; shift ;;
    *) echo "size-attacks.sh: unknown option $1" >&2; exit 64 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${QUIRE:-}" ]; then
  if [ "$build" = 1 ]; then
    (cd "$root" && swift build -c release --product quire >&2)
  fi
  QUIRE=$root/.build/release/quire
fi
[ -x "$QUIRE" ] || { echo "size-attacks.sh: no quire binary at $QUIRE" >&2; exit 66; }

work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/size-attacks.XXXXXX")}
cleanup() { [ "$keep" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/in" "$work/out" "$work/log"

echo "generating $scale inputs in $work/in" >&2
python3 "$root/Tests/QuireIngestTests/Fixtures/make-size-attacks.py" "$work/in" \
  --scale "$scale" ${only:+--only "$only"} >&2

vmem_kb=$((vmem_gb * 1024 * 1024))

# One row per case, fields separated by U+001F: name, expectation, its own wall-clock limit
# (0: the default), the arguments with the
# placeholders filled in ({dir} the inputs, {out} this case's output folder), ".".
cases() {
  python3 - "$work/in/cases.json" "$work/in" "$work/out" "$only" <<'EOF'
import json, sys
spec, indir, outdir, only = sys.argv[1:5]
only = set(filter(None, only.split(",")))
for c in json.load(open(spec))["cases"]:
    if only and c["name"] not in only:
        continue
    out = f"{outdir}/{c['name']}"
    args = [a.replace("{dir}", indir).replace("{out}", out) for a in c["args"]]
    # Unit separators, and a closing field: an empty argument (-o "") survives `read -a`.
    print("\x1f".join([c["name"], c["expect"], str(c.get("timeout", 0))] + args + ["."]))
EOF
}

signame() { kill -l "$1" 2>/dev/null || echo "$1"; }

# The table cell for how a run ended, from /usr/bin/time's report (time runs `timeout`,
# which runs quire): past the wall-clock limit it is a timeout whatever the status says.
outcome() {
  local status=$1 tfile=$2 wall
  wall=$(wall_seconds "$tfile")
  if awk -v w="$wall" -v l="$limit" 'BEGIN { exit !(w + 0.5 >= l) }'; then
    echo "timeout (${limit} s)"
  elif grep -q "Command terminated by signal" "$tfile"; then
    echo "signal $(signame "$(sed -n 's/.*Command terminated by signal \([0-9]*\).*/\1/p' "$tfile")")"
  elif [ "$status" -gt 128 ] && [ "$status" -lt 160 ]; then
    echo "signal $(signame $((status - 128)))"
  else
    echo "exit $status"
  fi
}

wall_seconds() {
  sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }'
}

rss_mb() {
  sed -n 's/.*Maximum resident set size (kbytes): //p' "$1" | awk '{ printf "%.0f", $1 / 1024 }'
}

# First stderr line, at most 90 characters, Markdown-safe; plus the byte count.
stderr_cell() {
  local f=$1 bytes first
  bytes=$(wc -c <"$f" | tr -d ' ')
  first=$(grep -v '^\s*$' "$f" | head -n 1 | sed "s|$work/in/||g; s|$work/out/||g" | cut -c1-90 |
    sed 's/|/\\|/g; s/`/'"'"'/g')
  if [ "$bytes" = 0 ]; then echo "—"; else echo "${bytes} B: ${first}"; fi
}

leftovers() {
  local dir=$1
  [ -d "$dir" ] || { echo ""; return; }
  local n
  n=$(find "$dir" -name '*.tmp*' 2>/dev/null | wc -l | tr -d ' ')
  [ "$n" = 0 ] && echo "" || echo "; $n temp files left"
}

# With --boxes, how many text lines leave the measure (margins 40 on a 600 px page).
measure() {
  [ -f "$1/manifest.json" ] || return 0
  python3 - "$1/manifest.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
lines = [l for p in m["pages"] for l in p.get("lines") or [] if l["role"] == "text"]
out = [l for l in lines if l["x"] < 39.5 or l["x"] + l["width"] > 560.5]
widest = max((l["width"] for l in lines), default=0)
print(f"; {len(out)} of {len(lines)} lines past the measure (widest {widest:.0f} px)" if out else "")
EOF
}

echo "| class | command | outcome | wall s | peak RSS MB | stderr |"
echo "|---|---|---|---|---|---|"
while IFS=$'\x1f' read -r -a row; do
  name=${row[0]}
  expect=${row[1]}
  limit=$default_limit
  [ "${row[2]}" -gt 0 ] && limit=${row[2]}
  args=("${row[@]:3:${#row[@]}-4}")
  tfile=$work/log/$name.time
  rm -rf "$work/out/$name"
  echo "running $name" >&2
  set +e
  # A scratch working directory: `-o ""` must not write into the caller's folder.
  mkdir -p "$work/cwd/$name"
  (
    cd "$work/cwd/$name"
    ulimit -v "$vmem_kb"
    exec /usr/bin/time -v -o "$tfile" timeout --foreground -k 5 "$limit" "$QUIRE" "${args[@]}"
  ) >"$work/log/$name.out" 2>"$work/log/$name.err"
  status=$?
  set -e
  shown="quire$(printf " %q" "${args[@]}")"
  shown=${shown//$work\/in\//}
  shown=${shown//$work\/out\//}
  manifest=""
  if [ -f "$work/out/$name/manifest.json" ]; then
    manifest="; manifest $(du -k "$work/out/$name/manifest.json" | awk '{ printf "%.1f", $1 / 1024 }') MB"
  fi
  stray=$(find "$work/cwd/$name" -mindepth 1 | wc -l | tr -d ' ')
  [ "$stray" = 0 ] && stray="" || stray="; wrote $stray files into the working directory"
  printf '| %s | `%s` | %s%s%s%s%s | %s | %s | %s |\n' "$name" "$shown" \
    "$(outcome "$status" "$tfile")" "$(leftovers "$work/out/$name")" "$stray" "$manifest" \
    "$([ "$expect" = layout ] && measure "$work/out/$name")" \
    "$(wall_seconds "$tfile")" "$(rss_mb "$tfile")" "$(stderr_cell "$work/log/$name.err")"
  rm -rf "$work/out/$name" "$work/cwd/$name"
done < <(cases)

# Signals: SIGTERM three seconds into a long flip; what is left in the output folder.
if [ -z "$only" ] || [[ ",$only," == *",signals,"* ]]; then
  dir=$work/out/signals
  mkdir -p "$dir"
  "$QUIRE" flip "$work/in/small.epub" --page 1 -o "$dir/turn.png" --frames 600 \
    >/dev/null 2>"$work/log/signals.err" &
  pid=$!
  sleep 3
  kill -TERM "$pid" 2>/dev/null || true
  set +e
  wait "$pid"
  status=$?
  set -e
  left=$(cd "$dir" && ls -A | tr '\n' ' ')
  printf '| signals | `quire flip small.epub --page 1 -o turn.png --frames 600`, SIGTERM at 3 s | %s | — | — | left in the folder: %s |\n' \
    "$( [ "$status" -gt 128 ] && echo "signal $(signame $((status - 128)))" || echo "exit $status")" \
    "${left:-nothing}"
fi

# Output folder: a re-render with fewer pages; two renders into one folder at once. The
# folder must hold one render's output: the manifest's page files, all of its size.
folder_check() {
  python3 - "$1" <<'EOF'
import json, os, struct, sys
d = sys.argv[1]
try:
    m = json.load(open(os.path.join(d, "manifest.json")))
except Exception as e:
    print(f"no readable manifest ({type(e).__name__})"); sys.exit()
w, h = m["layout"]["width"], m["layout"]["height"]
listed = {p["file"] for p in m["pages"] if p.get("file")}
files = {f for f in os.listdir(d) if f.startswith("page-") and f.endswith(".png")}
sizes = {}
for f in files:
    with open(os.path.join(d, f), "rb") as fh:
        head = fh.read(24)
    sizes[f] = struct.unpack(">II", head[16:24]) if len(head) >= 24 else None
wrong = sum(1 for s in sizes.values() if s != (w, h))
tmp = sum(1 for f in os.listdir(d) if ".tmp" in f)
print(f"manifest {w}x{h}, {len(listed)} pages; {len(files - listed)} stale page files, "
      f"{wrong} of another size, {tmp} temp files")
EOF
}

if [ -z "$only" ] || [[ ",$only," == *",output-folder,"* ]]; then
  dir=$work/out/rerender
  rm -rf "$dir"
  "$QUIRE" render "$work/in/small.epub" -o "$dir" --font-size 24 >/dev/null 2>&1 || true
  set +e
  "$QUIRE" render "$work/in/small.epub" -o "$dir" --font-size 10 >/dev/null 2>"$work/log/rerender.err"
  status=$?
  set -e
  printf '| rerender-fewer-pages | `quire render small.epub -o DIR --font-size 24`, then `--font-size 10` | exit %s | — | — | %s |\n' \
    "$status" "$(folder_check "$dir")"
  dir=$work/out/concurrent
  rm -rf "$dir"
  "$QUIRE" render "$work/in/small.epub" -o "$dir" --size 600x800 >/dev/null 2>&1 &
  a=$!
  "$QUIRE" render "$work/in/small.epub" -o "$dir" --size 300x400 >/dev/null 2>&1 &
  b=$!
  set +e
  wait "$a"; sa=$?
  wait "$b"; sb=$?
  set -e
  printf '| concurrent-renders | `quire render small.epub -o DIR --size 600x800` and `--size 300x400` at once | exit %s, exit %s | — | — | %s |\n' \
    "$sa" "$sb" "$(folder_check "$dir")"
fi
