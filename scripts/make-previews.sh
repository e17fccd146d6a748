#!/usr/bin/env bash
# Renders the README's previews: one strip of frames per effect, and before/after pages.
#   bash scripts/make-previews.sh   (needs a release build and Debian's python3-pil)
set -euo pipefail
cd "$(dirname "$0")/.."
Q=${QUIRE:-.build/release/quire}
C=${CORPUS:-${QUIRE_CORPUS:-../shared/corpus}}
OUT=docs/previews
T=$(mktemp -d)
mkdir -p "$OUT"
strip() { # strip NAME DIR: five frames side by side, 160 px wide each
  /usr/bin/python3 - "$2" "$OUT/$1.png" <<'PY'
import sys, os, json
from PIL import Image
d, out = sys.argv[1], sys.argv[2]
files = sorted(f for f in os.listdir(d) if f.endswith('.png'))
pick = [files[round(i * (len(files) - 1) / 4)] for i in range(5)]
ims = [Image.open(os.path.join(d, f)).convert('RGB') for f in pick]
w = 160; h = round(ims[0].height * w / ims[0].width)
sheet = Image.new('RGB', (5 * w + 4 * 6, h), (255, 255, 255))
for i, im in enumerate(ims):
    sheet.paste(im.resize((w, h), Image.LANCZOS), (i * (w + 6), 0))
sheet.save(out, optimize=True)
PY
}
BOOK=samples/childrens-literature.epub
for style in curl leaves fold hard slide fade push; do
  "$Q" flip "$BOOK" --page 5 --style "$style" --frames 21 -o "$T/$style" 
  strip "flip-$style" "$T/$style"
done
"$Q" flip "$BOOK" --page 5 --style curl --corner top --back blank --frames 21 -o "$T/curl-top"
strip flip-curl-top-blank "$T/curl-top"
"$Q" flip "$C/regime-anticancer-arabic.epub" --page 3 --style curl --frames 21 -o "$T/curl-rtl"
strip flip-curl-rtl "$T/curl-rtl"
"$Q" flip "$BOOK" --page 5 --style curl --spread --frames 21 -o "$T/curl-spread"
strip flip-curl-spread "$T/curl-spread"
"$Q" open "$C/moby-dick.epub" --frames 21 -o "$T/open"
strip open "$T/open"
"$Q" shelf "$C/moby-dick.epub" "$C/pg84-frankenstein.epub" "$C/childrens-literature.epub" \
  "$C/accessible_epub_3.epub" "$C/wasteland-otf-obf.epub" "$C/regime-anticancer-arabic.epub" \
  --progress 100,100,40,100,,75 --frames 21 -o "$T/shelf"
strip shelf "$T/shelf"
# Before/after typography: mutool-like greedy, no hyphenation vs optimal + hyphenation.
"$Q" render "$C/moby-dick.epub" -o "$T/greedy" --pages 40 --size 400x600 --linebreak greedy --hyphenate off
"$Q" render "$C/moby-dick.epub" -o "$T/optimal" --pages 40 --size 400x600
cp "$T/greedy/page-0040.png" "$OUT/moby-p40-greedy.png"
cp "$T/optimal/page-0040.png" "$OUT/moby-p40-optimal.png"
"$Q" render "$C/xiyouji-journey-to-the-west.utf8.txt" -o "$T/zh" --pages 3
cp "$T/zh/page-0003.png" "$OUT/xiyouji-p3.png"
"$Q" render "$C/jlreq-in-japanese.epub" -o "$T/ja" --pages 234
cp "$T/ja/page-0234.png" "$OUT/jlreq-p234.png"
"$Q" render "$C/regime-anticancer-arabic.epub" -o "$T/ar" --pages 4
cp "$T/ar/page-0004.png" "$OUT/arabic-p4.png"
# MathML (issue #15): the equations fixture page, and the notations/colours/breaking page.
"$Q" render Tests/QuireTests/Fixtures/mathml/equations.xhtml -o "$T/math" --pages 1
cp "$T/math/page-0001.png" "$OUT/mathml-after.png"
"$Q" render Tests/QuireTests/Fixtures/mathml/notations.xhtml -o "$T/notations" --color rgb
cp "$T/notations/page-0001.png" "$OUT/mathml-notations.png"
# The flipbook in headless Chromium, a spread turning (needs chromium, chromium-driver,
# python3-selenium).
/usr/bin/python3 scripts/flipbook-browser-test.py --quire "$Q" \
  --ltr Tests/QuireTests/Fixtures/flipbook/ltr.epub --rtl Tests/QuireTests/Fixtures/flipbook/rtl.epub \
  --preview "$OUT/flipbook-spread.png"
rm -rf "$T"
echo "previews in $OUT"
