#!/bin/sh
# Builds and runs a libFuzzer target over the QuireIngest sources.
#   Fuzz/run.sh zip|xhtml|css SECONDS [extra libFuzzer args]
# The binary compiles the library sources directly with swiftc (SwiftPM cannot link
# -sanitize=fuzzer executables), the C wrappers come in through their module maps.
# QuireCore (which QuireIngest imports) is compiled first as its own static module, with
# ASan but without fuzzer coverage.
# Seeds: the corpus books (zip), their XHTML chapters (xhtml) or their style sheets (css);
# crashers land in Fuzz/artifacts/<target>/.
set -eu
target=${1:?usage: Fuzz/run.sh zip|xhtml|css SECONDS}
seconds=${2:-60}
shift 2 || true
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=${FUZZ_WORK:-$root/.build/fuzz}
corpus=${QUIRE_CORPUS:-$root/../shared/corpus}
mkdir -p "$work/$target/seeds" "$work/$target/corpus" "$here/artifacts/$target"

case "$target" in
  zip) entry="$here/ZipFuzz.swift" ;;
  xhtml) entry="$here/XHTMLFuzz.swift" ;;
  css) entry="$here/CSSFuzz.swift" ;;
  *) echo "unknown target $target (zip|xhtml|css)" >&2; exit 64 ;;
esac

core="$work/core"
mkdir -p "$core"
(cd "$core" && swiftc -sanitize=address -parse-as-library -g -Onone -swift-version 6 \
  -module-name QuireCore -package-name quire -emit-module -emit-library -static \
  -Xcc -fmodule-map-file="$root/Sources/CDeflate/module.modulemap" -I "$root/Sources/CDeflate" \
  $(find "$root/Sources/QuireCore" -name '*.swift' | sort) -o "$core/libQuireCore.a")

bin="$work/$target/fuzz-$target"
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -g -Onone -swift-version 6 \
  -module-name QuireIngest -package-name quire -I "$core" -L "$core" -lQuireCore \
  -I "$root/Sources/CZlib" -I "$root/Sources/CLibXML2" -I "$root/Sources/CDeflate" \
  -I "$root/Sources/CUchardet" \
  -Xcc -fmodule-map-file="$root/Sources/CZlib/module.modulemap" \
  -Xcc -fmodule-map-file="$root/Sources/CLibXML2/module.modulemap" \
  -Xcc -fmodule-map-file="$root/Sources/CDeflate/module.modulemap" \
  -Xcc -fmodule-map-file="$root/Sources/CUchardet/module.modulemap" \
  $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g') \
  $(find "$root/Sources/QuireIngest" -name '*.swift' | sort) \
  "$here/FuzzSupport.swift" "$entry" \
  -lxml2 -lz -ldeflate -luchardet -o "$bin"

if [ "$target" = zip ]; then
  for f in "$corpus"/*.epub "$root"/Tests/QuireIngestTests/Fixtures/hostile/*; do
    [ -f "$f" ] || continue
    # libFuzzer's default max_len is small; keep seeds under 1 MB (big books are truncated
    # seeds, which is itself a useful input).
    head -c 1000000 "$f" > "$work/$target/seeds/$(basename "$f")"
  done
  maxlen=1000000
elif [ "$target" = css ]; then
  for f in "$corpus"/*.epub; do
    [ -f "$f" ] || continue
    unzip -o -qq -j "$f" '*.css' -d "$work/$target/seeds" 2>/dev/null || true
  done
  printf '.c1 p { margin: 1em }\ndiv.a > p.a + p ~ ul li:first-child a[href^="#"] { color: red !important }\n@media (min-width: 10px) { #x .a { font: bold 12px/1.5 serif } }\n' \
    > "$work/$target/seeds/handmade.css"
  maxlen=65536
else
  for f in "$corpus"/*.epub; do
    [ -f "$f" ] || continue
    unzip -o -qq -j "$f" '*.xhtml' '*.html' -d "$work/$target/seeds" 2>/dev/null || true
  done
  maxlen=200000
fi

exec "$bin" -max_total_time="$seconds" -max_len=$maxlen -rss_limit_mb=2048 -timeout=20 \
  -artifact_prefix="$here/artifacts/$target/" "$@" \
  "$work/$target/corpus" "$work/$target/seeds"
