#!/usr/bin/env python3
"""Headless Chromium's MathML Core rendering of a MathML fixture, the oracle for issue #15.

Usage: mathml-chromium.py FIXTURE.xhtml [--screenshot OUT.png] [--width 600] [--height 800]
Lays the fixture's <body> out as Quire does by default (a 600 × 800 page, 50 px margins,
the vendored Noto Serif at 16 px, line-height 1.4) with math in the vendored STIX Two Math,
and prints `id width height` of every <math> (getBoundingClientRect; for display math the width
of its children's union, as the element itself spans the line). With --screenshot, also
writes the page as a PNG to look at beside Quire's page.
"""
import argparse, html as H, pathlib, re, subprocess, tempfile

root = pathlib.Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("fixture")
ap.add_argument("--screenshot")
ap.add_argument("--width", type=int, default=600)
ap.add_argument("--height", type=int, default=800)
a = ap.parse_args()
src = pathlib.Path(a.fixture).read_text()
body = re.search(r"<body>(.*)</body>", src, re.S).group(1)
fonts = root / "fonts"
page = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>
@font-face {{ font-family: Q; src: url(file://{fonts}/NotoSerif-Regular.ttf); }}
@font-face {{ font-family: M; src: url(file://{fonts}/STIXTwoMath-Regular.ttf); }}
html {{ font-family: Q; font-size: 16px; line-height: 1.4; margin: 0; padding: 0 }}
body {{ margin: 50px; width: {a.width - 100}px }}
p {{ margin: 1em 0 }} div {{ margin: 0 }}
math {{ font-family: M }}
</style></head><body>{body}
<script>
document.fonts.ready.then(() => {{
  const out = [];
  for (const e of document.querySelectorAll('math')) {{
    // Display math fills its line: its width is its content's (the children's union).
    const r = e.getBoundingClientRect();
    let left = Infinity, right = -Infinity;
    for (const c of e.children) {{
      const q = c.getBoundingClientRect();
      left = Math.min(left, q.left); right = Math.max(right, q.right);
    }}
    const w = e.getAttribute('display') == 'block' ? right - left : r.width;
    out.push([e.id, w.toFixed(2), r.height.toFixed(2)].join(' '));
  }}
  const pre = document.createElement('pre'); pre.id = 'rects'; pre.textContent = out.join('\\n');
  pre.style.display = 'none';
  document.body.appendChild(pre);
}});
</script></body></html>"""
with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as f:
    f.write(page)
base = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
        "--virtual-time-budget=3000", "--hide-scrollbars"]
dom = subprocess.run(base + ["--dump-dom", "file://" + f.name], capture_output=True, text=True,
                     timeout=120).stdout
m = re.search(r'<pre id="rects"[^>]*>(.*?)</pre>', dom, re.S)
print(H.unescape(m.group(1)) if m else "no rects (did the fonts load?)")
if a.screenshot:
    subprocess.run(base + [f"--window-size={a.width},{a.height}", f"--screenshot={a.screenshot}",
                           "file://" + f.name], capture_output=True, timeout=120)
