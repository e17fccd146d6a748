#!/bin/sh
# Builds and runs a libFuzzer target over the QuireIngest sources (zip, xhtml, epub, css) or
# the QuireTypeset sources (typeset).
#   Fuzz/run.sh zip|xhtml|epub|css|typeset SECONDS [extra libFuzzer args]
# The binary compiles the library sources directly with swiftc (SwiftPM cannot link
# -sanitize=fuzzer executables), the C wrappers come in through their module maps.
# Seeds: the corpus books (zip, epub), their XHTML chapters (xhtml) or their style sheets
# (css); crashers land in Fuzz/artifacts/<target>/.
set -eu
target=${1:?usage: Fuzz/run.sh zip|xhtml|epub|css|typeset SECONDS}
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
  # The structure-aware EPUB mutator (LLVMFuzzerCustomMutator) over the same reader.
  epub) entry="$here/EPUBFuzz.swift" ;;
  css) entry="$here/CSSFuzz.swift" ;;
  typeset) entry="$here/TypesetFuzz.swift" ;;
  *) echo "unknown target $target (zip|xhtml|epub|css|typeset)" >&2; exit 64 ;;
esac

if [ "$target" = typeset ]; then
  # QuireCore and QuireIngest as plain modules (no coverage: the fuzzer's bytes reach them
  # only as hand-built values), then QuireTypeset with the entry, instrumented. One package
  # name for all three, so `package` declarations are visible across them.
  mods="$work/typeset/modules"
  mkdir -p "$mods"
  cflags() { pkg-config --cflags-only-I "$@" | sed 's/-I/-Xcc -I/g'; }
  maps() { for m in "$@"; do printf -- '-Xcc -fmodule-map-file=%s ' "$root/Sources/$m/module.modulemap"; done; }
  # shellcheck disable=SC2046
  swiftc -parse-as-library -wmo -gnone -Onone -swift-version 6 -sanitize=address \
    -module-name QuireCore -package-name quirefuzz -emit-module -emit-module-path "$mods/QuireCore.swiftmodule" \
    $(maps CDeflate) $(find "$root/Sources/QuireCore" -name '*.swift' | sort) \
    -c -o "$mods/QuireCore.o"
  # shellcheck disable=SC2046
  swiftc -parse-as-library -wmo -gnone -Onone -swift-version 6 -sanitize=address -I "$mods" \
    -module-name QuireIngest -package-name quirefuzz -emit-module -emit-module-path "$mods/QuireIngest.swiftmodule" \
    $(maps CDeflate CLibXML2 CZlib CUchardet) $(cflags libxml-2.0 uchardet) \
    $(find "$root/Sources/QuireIngest" -name '*.swift' | sort) \
    -c -o "$mods/QuireIngest.o"
  bin="$work/typeset/fuzz-typeset"
  # shellcheck disable=SC2046
  # -O: at -Onone under ASan a 20 000-character paragraph took over libFuzzer's 20 s.
  swiftc -sanitize=fuzzer,address -parse-as-library -g -O -swift-version 6 -I "$mods" \
    -module-name QuireTypeset -package-name quirefuzz \
    $(maps CDeflate CLibXML2 CZlib CUchardet CFreeType CHarfBuzz CUnibreak CFriBidi CHyphen) \
    $(cflags libxml-2.0 uchardet freetype2 harfbuzz fribidi) \
    $(find "$root/Sources/QuireTypeset" -name '*.swift' | sort) "$entry" \
    "$mods/QuireCore.o" "$mods/QuireIngest.o" \
    -lxml2 -lz -luchardet -ldeflate -lfreetype -lharfbuzz -lunibreak -lfribidi -lhyphen -o "$bin"
  # Seeds: a few hand-made inputs (flags, width, height, size, then runs).
  printf '\000\100\100\100\000\040hello world this is a paragraph' > "$work/typeset/seeds/plain"
  printf '\001\020\100\200\011\077xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' > "$work/typeset/seeds/word"
  printf '\002\040\100\100\000\020\031\032\033\034\035\036\037\040\041\042\043' > "$work/typeset/seeds/cjk"
  exec "$bin" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 -timeout=20 \
    -artifact_prefix="$here/artifacts/$target/" "$@" \
    "$work/$target/corpus" "$work/$target/seeds"
fi

bin="$work/$target/fuzz-$target"
mods="$work/modules"
mkdir -p "$mods"
# QuireCore (diagnostics, shared types) is its own module: compile it first (instrumented
# too) into a module file and objects the Ingest module imports and links.
swiftc -sanitize=fuzzer,address -parse-as-library -g -Onone -swift-version 6 -package-name quire \
  -module-name QuireCore -emit-module -emit-module-path "$mods/QuireCore.swiftmodule" \
  -Xcc -fmodule-map-file="$root/Sources/CDeflate/module.modulemap" \
  -emit-library -static -o "$mods/libQuireCore.a" \
  $(find "$root/Sources/QuireCore" -name '*.swift' | sort)
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -g -Onone -swift-version 6 -package-name quire \
  -module-name QuireIngest -I "$mods" -L "$mods" -lQuireCore \
  -I "$root/Sources/CZlib" -I "$root/Sources/CLibXML2" \
  -Xcc -fmodule-map-file="$root/Sources/CZlib/module.modulemap" \
  -Xcc -fmodule-map-file="$root/Sources/CLibXML2/module.modulemap" \
  -Xcc -fmodule-map-file="$root/Sources/CDeflate/module.modulemap" \
  -Xcc -fmodule-map-file="$root/Sources/CUchardet/module.modulemap" \
  $(pkg-config --cflags-only-I libxml-2.0 uchardet | sed 's/-I/-Xcc -I/g') \
  $(find "$root/Sources/QuireIngest" -name '*.swift' | sort) \
  "$here/FuzzSupport.swift" "$entry" \
  -lxml2 -lz -ldeflate -luchardet -o "$bin"

if [ "$target" = zip ] || [ "$target" = epub ]; then
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
