#!/usr/bin/env python3
"""Lays a fixture out in headless Chromium with Quire's fonts at Quire's content width and
prints, per table cell, the left and right edges of its first line of text (page px, the
left margin included) and the first word of the cell, as JSON lines. The table tests
compare Quire's `--boxes` lines with these numbers (Tests/QuireTests/TableTests.swift).

usage: scripts/table-chromium.py FIXTURE.xhtml [--width 600] [--margin 50]
"""
import json, os, re, subprocess, sys, tempfile

def main():
    args = sys.argv[1:]
    path = args[0]
    width = int(args[args.index("--width") + 1]) if "--width" in args else 600
    margin = int(args[args.index("--margin") + 1]) if "--margin" in args else 50
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fonts = os.path.join(root, "fonts")
    faces = "".join(
        f"@font-face {{ font-family: 'Noto Serif'; src: url('file://{fonts}/{f}'); "
        f"font-weight: {w}; font-style: {s} }}\n"
        for f, w, s in [("NotoSerif-Regular.ttf", 400, "normal"), ("NotoSerif-Bold.ttf", 700, "normal"),
                        ("NotoSerif-Italic.ttf", 400, "italic"), ("NotoSerif-BoldItalic.ttf", 700, "italic")])
    css = faces + (f"html {{ font-family: 'Noto Serif'; font-size: 16px; line-height: 1.4 }} "
                   f"body {{ margin: 0 0 0 {margin}px; width: {width - 2 * margin}px }}")
    script = """
    document.fonts.ready.then(() => {
      const out = [];
      for (const cell of document.querySelectorAll('td, th, caption')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        let node; while ((node = walker.nextNode()) && !node.textContent.trim()) {}
        if (!node) continue;
        const r = document.createRange(); r.selectNodeContents(node);
        const rect = r.getClientRects()[0];
        const box = cell.getBoundingClientRect();
        out.push({word: node.textContent.trim().split(/\\s+/)[0], x: rect.left,
                  right: rect.right, cellLeft: box.left, cellRight: box.right});
      }
      const pre = document.createElement('pre'); pre.id = 'oracle';
      pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
    });"""
    src = open(path, encoding="utf-8").read()
    src = src.replace("</head>", f"<style>{css}</style></head>", 1)
    src = src.replace("</body>", f"<script>//<![CDATA[\n{script}\n//]]></script></body>", 1)
    with tempfile.NamedTemporaryFile("w", suffix=".xhtml", delete=False) as f:
        f.write(src)
    dom = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
         "--virtual-time-budget=5000", "--dump-dom", "file://" + f.name],
        capture_output=True, text=True, timeout=120).stdout
    os.unlink(f.name)
    m = re.search(r'<pre id="oracle">(.*?)</pre>', dom, re.S)
    if not m:
        sys.exit("no oracle output")
    for cell in json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")):
        print(json.dumps(cell))

main()
