#!/usr/bin/env python3
"""Where lines break, Quire against headless Chromium, paragraph by paragraph.

Usage: line-break-oracle.py XHTML [--size WxH] [--quire BIN] [--json FILE]

Both lay out the file's first page with the same fonts and the same width (the browser
oracle's setup, scripts/browser-oracle.py: Quire's fonts through a private fontconfig, its
user-agent sheet, the text area as the viewport). Quire runs with `--linebreak greedy`, the
first-fit breaking a browser does, so what is compared is where each engine may break (UAX
#14, and ICU's dictionaries inside Thai, Lao, Khmer and Myanmar words) and not Knuth-Plass'
choices. The browser's lines are found from the rectangles of each character (a new line
starts where a character sits lower than the one before).

Prints one row per paragraph (agree / differ with both line lists) and a JSON report with
--json; exit 0 when it ran (agreement is the caller's judgement), 1 on failure, 2 when
chromium is missing.
"""
import argparse, importlib.util, json, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("oracle", ROOT / "scripts/browser-oracle.py")
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)

# Runs in the page: for every element, the text of each of its lines, spaces removed.
LINES_JS = r"""
async (uaCss) => {
  const all = Array.from(document.getElementsByTagName('*'));  // before the sheet is added
  const style = document.createElementNS('http://www.w3.org/1999/xhtml', 'style');
  style.textContent = '@layer ua {' + uaCss + '}';
  (document.head || document.documentElement).appendChild(style);
  await document.fonts.ready;
  const out = {};
  all.forEach((el, ordinal) => {
    if (!/^(p|h[1-6]|li|div|blockquote|td|th|dd|dt)$/.test(el.localName)) return;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const lines = [];
    let lastTop = null, line = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.data;
      for (let i = 0; i < text.length; ) {
        const step = text.codePointAt(i) > 0xFFFF ? 2 : 1;
        const ch = text.slice(i, i + step);
        if (!/\s/.test(ch)) {
          const r = document.createRange();
          r.setStart(node, i); r.setEnd(node, i + step);
          const rects = r.getClientRects();
          if (rects.length) {
            const top = rects[0].top;
            if (lastTop !== null && top > lastTop + 1) { lines.push(line); line = ''; }
            lastTop = top;
          }
          line += ch;
        }
        i += step;
      }
    }
    if (line) lines.push(line);
    if (lines.length) out[ordinal] = lines;
  });
  return out;
}
"""


def quire_lines(args, book, out_dir):
    """source ordinal → line texts (spaces removed) of Quire's first page, greedy breaking."""
    cmd_args = argparse.Namespace(quire=args.quire, size=args.size, font_size=16.0,
                                  publisher_styles="on", margins=None)
    real_run = oracle.subprocess.run

    def greedy(cmd, **kw):  # the oracle's Quire command plus first-fit breaking
        return real_run(cmd + ["--linebreak", "greedy"], **kw)

    oracle.subprocess.run = greedy
    try:
        manifest = oracle.run_quire(cmd_args, book, out_dir)
    finally:
        oracle.subprocess.run = real_run
    page = manifest["pages"][0]
    source = {b["index"]: b["source"] for b in page.get("blocks") or []}
    lines = {}
    for line in page.get("lines") or []:
        if line.get("role", "text") != "text" or line["block"] not in source:
            continue
        text = "".join(line["text"].split())
        if text:
            lines.setdefault(source[line["block"]], []).append(text)
    return manifest, lines


def run(args):
    binary = oracle.chromium_binary(args.chromium)
    if not binary:
        return None
    book = Path(args.book)
    with tempfile.TemporaryDirectory(prefix="quire-lines-") as tmp:
        work = Path(tmp)
        manifest, quire = quire_lines(args, book, work / "quire")
        margins = oracle.uniform_margins(manifest["layout"])
        w, h = (int(v) for v in args.size.lower().split("x"))
        root = Path(oracle.unpack_book(book, work))
        url, _ = oracle.chapter_url(root, manifest["pages"][0]["href"])
        ua = oracle.user_agent_css(manifest["layout"].get("lineHeight", 1.4))
        browser = oracle.Chromium(binary, work, args.timeout)
        try:
            browser.call("Emulation.setDeviceMetricsOverride", {
                "width": round(w - margins["left"] - margins["right"]),
                "height": round(h - margins["top"] - margins["bottom"]),
                "deviceScaleFactor": 2, "mobile": False})
            browser.call("Page.navigate", {"url": url}, wait_event="Page.loadEventFired")
            res = browser.call("Runtime.evaluate", {
                "expression": f"({LINES_JS})({json.dumps(ua)})", "awaitPromise": True,
                "returnByValue": True})
        finally:
            browser.close()
    if "exceptionDetails" in res:
        raise oracle.OracleError(str(res["exceptionDetails"].get("text")))
    chromium = {int(k): v for k, v in res["result"]["value"].items()}
    rows = []
    for source in sorted(quire):
        q, c = quire[source], chromium.get(source)
        rows.append({"source": source, "agree": q == c, "quire": q, "chromium": c})
    return {"book": str(book), "size": args.size, "paragraphs": rows,
            "agree": sum(r["agree"] for r in rows)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("book")
    p.add_argument("--size", default="600x800")
    p.add_argument("--quire")
    p.add_argument("--chromium")
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--json")
    args = p.parse_args(argv)
    try:
        report = run(args)
    except oracle.OracleError as e:
        print(f"line-break-oracle: {e}", file=sys.stderr)
        return 1
    if report is None:
        print("line-break-oracle: chromium not found (apt-get install chromium)", file=sys.stderr)
        return 2
    for r in report["paragraphs"]:
        print(f"element {r['source']}: {'agree' if r['agree'] else 'DIFFER'} "
              f"({len(r['quire'])} lines in Quire, {len(r['chromium'] or [])} in Chromium)")
        if not r["agree"]:
            print("  quire:    " + " | ".join(r["quire"]))
            print("  chromium: " + " | ".join(r["chromium"] or []))
    print(f"{report['agree']}/{len(report['paragraphs'])} paragraphs break alike")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
