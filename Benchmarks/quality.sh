#!/usr/bin/env bash
# The typographic quality table of the README: every corpus book at 600x800 / 16 px,
# through `quire paginate --stats --json`. Prints markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${CORPUS:-${QUIRE_CORPUS:-../shared/corpus}}
Q=${QUIRE:-.build/release/quire}
echo "| book | pages | lines | justified (word spaces) | hyphenated | spaces > 1.5× | spaces > 2× | longest hyphen run | widows | orphans | kinsoku violations |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for f in "$CORPUS"/*.epub "$CORPUS"/*.txt; do
  "$Q" paginate "$f" --stats --json "$@" | /usr/bin/env python3 -c '
import json, sys, os
d = json.load(sys.stdin); s = d["stats"]
name = os.path.basename(sys.argv[1])
pct = lambda x: "%.2f%%" % (100 * x)
cells = [name, d["pageCount"], s["lines"], s["justifiedLines"], pct(s["hyphenatedShare"]),
         pct(s["spacesOver150"]), pct(s["spacesOver200"]), s["longestHyphenRun"], s["widows"],
         s["orphans"], s["kinsokuViolations"]]
print("| " + " | ".join(str(c) for c in cells) + " |")
' "$f"
done
