#!/usr/bin/env python3
"""Block rects of an HTML body in headless Chromium, for checking Quire's box model by hand.

Usage: chromium-box-rects.py BODY.html CSS.css [WIDTH]
Lays BODY (the inside of <body>) out with CSS in a WIDTH px wide body (default 360) at
20, 20, with the vendored Noto Serif at 16 px and line-height 1.4 (Quire's defaults), and
prints `tag x y width height` of every element from getBoundingClientRect, in document order.
"""
import pathlib, subprocess, sys, tempfile, html as H, re

root = pathlib.Path(__file__).resolve().parent.parent
body = pathlib.Path(sys.argv[1]).read_text()
css = pathlib.Path(sys.argv[2]).read_text()
width = int(sys.argv[3]) if len(sys.argv) > 3 else 360
fonts = root / "fonts"
page = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>
@font-face {{ font-family: Q; src: url(file://{fonts}/NotoSerif-Regular.ttf); }}
@font-face {{ font-family: Q; font-weight: bold; src: url(file://{fonts}/NotoSerif-Bold.ttf); }}
html {{ font-family: Q; font-size: 16px; line-height: 1.4; margin: 0; padding: 0 }}
body {{ margin: 0; padding: 0 }} p {{ margin: 0 }}
{css}
body {{ margin: 20px !important; width: {width}px }}
</style></head><body>{body}
<script>
document.fonts.ready.then(() => {{
  const out = [];
  for (const e of document.querySelectorAll('body, body *')) {{
    if (e.tagName == 'SCRIPT') continue;
    const r = e.getBoundingClientRect();
    out.push([e.tagName.toLowerCase(), r.x, r.y, r.width, r.height].join(' '));
  }}
  const pre = document.createElement('pre'); pre.id = 'rects'; pre.textContent = out.join('\\n');
  document.body.appendChild(pre);
}});
</script></body></html>"""
with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as f:
    f.write(page)
dom = subprocess.run(
    ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
     "--virtual-time-budget=3000", "--dump-dom", "file://" + f.name],
    capture_output=True, text=True, timeout=120).stdout
m = re.search(r'<pre id="rects">(.*?)</pre>', dom, re.S)
print(H.unescape(m.group(1)) if m else "no rects (did the fonts load?)")
