#!/usr/bin/env python3
"""Writes Tests/Fixtures/fixed-layout.epub: a small fixed-layout book (issue #12).

Spine: p1 (viewport 1024x768, rendition:spread-none: absolutely positioned text and image,
background colours, a gradient, a border, z-index order, a translation, and transformed
boxes: a rotation with text inside, a scale about the top-left corner, a skew), p2 (viewport
600x800, page-spread-right: normal flow text, a relatively positioned box, overflow hidden,
a right/bottom-anchored box, a matrix(), a rotation in turns about the bottom-left corner,
a rotated box holding a rotated box (nested transforms compose), and two shrink-to-fit
absolute boxes, one anchored left and one right), p3 (rendition:layout-reflowable: plain
paragraphs that reflow).
Every size is explicit and the only font is DejaVu Sans (vendored in fonts/), so headless
Chromium at the same viewport draws the same boxes (scripts/fixed-layout-oracle.py).

Deterministic: fixed ZIP timestamps, the PNG written by hand with zlib. Standard library only.
"""

import struct
import sys
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests/Fixtures/fixed-layout.epub"


def png(width, height, pixel):
    rows = b"".join(
        b"\0" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def checker(x, y):
    return (230, 126, 34) if (x // 25 + y // 25) % 2 == 0 else (44, 62, 80)


CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""

OPF = """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" xml:lang="en">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:6f1c7c84-quire-fixed-layout-fixture</dc:identifier>
    <dc:title>Fixed layout fixture</dc:title>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">2026-12-01T00:00:00Z</meta>
    <meta property="rendition:layout">pre-paginated</meta>
    <meta property="rendition:orientation">auto</meta>
    <meta property="rendition:spread">auto</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="p1" href="p1.xhtml" media-type="application/xhtml+xml"/>
    <item id="p2" href="p2.xhtml" media-type="application/xhtml+xml"/>
    <item id="p3" href="p3.xhtml" media-type="application/xhtml+xml"/>
    <item id="img" href="checker.png" media-type="image/png"/>
  </manifest>
  <spine>
    <itemref idref="p1" properties="rendition:spread-none"/>
    <itemref idref="p2" properties="page-spread-right"/>
    <itemref idref="p3" properties="rendition:layout-reflowable"/>
  </spine>
</package>
"""

NAV = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>Contents</title></head>
<body><nav epub:type="toc"><ol>
  <li><a href="p1.xhtml">Landscape page</a></li><li><a href="p2.xhtml">Portrait page</a></li>
  <li><a href="p3.xhtml">Reflowable chapter</a></li></ol></nav></body>
</html>
"""

P1 = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<title>Landscape page</title>
<meta name="viewport" content="width=1024, height=768"/>
<style>
html, body { margin: 0; padding: 0; }
body { width: 1024px; height: 768px; background-color: #f4e9d8;
       font-family: "DejaVu Sans"; font-size: 20px; line-height: 24px; }
div { margin: 0; padding: 0; }
#band { position: absolute; top: 40px; left: 60px; width: 400px; height: 200px;
        background-image: linear-gradient(to right, #c0392b, #2980b9); }
#box { position: absolute; top: 300px; left: 560px; width: 300px; height: 150px;
       background-color: #27ae60; border: 6px solid #1d3557; }
#title { position: absolute; top: 520px; left: 80px; width: 600px; font-size: 40px;
         line-height: 48px; color: #222222; }
#picture { position: absolute; top: 60px; left: 700px; width: 200px; height: 150px; }
#over { position: absolute; top: 300px; left: 100px; width: 200px; height: 120px;
        background-color: #e67e22; z-index: 2; }
#under { position: absolute; top: 340px; left: 160px; width: 200px; height: 120px;
         background-color: #16a085; z-index: 1; }
#moved { position: absolute; top: 600px; left: 700px; width: 120px; height: 80px;
         background-color: #8e44ad; transform: translate(50px, 20px); }
#spin { position: absolute; top: 600px; left: 40px; width: 160px; height: 80px;
        background-color: #d81b60; color: #ffffff; transform: rotate(10deg); }
#grow { position: absolute; top: 610px; left: 260px; width: 100px; height: 60px;
        background-color: #1f618d; transform: scale(1.5, 0.75); transform-origin: left top; }
#lean { position: absolute; top: 600px; left: 460px; width: 120px; height: 90px;
        background-color: #196f3d; transform: skewX(-20deg); }
</style>
</head>
<body>
<div id="band"></div>
<div id="over"></div>
<div id="under"></div>
<div id="box"></div>
<div id="title">Fixed layout</div>
<img id="picture" src="checker.png" alt="checker"/>
<div id="moved"></div>
<div id="spin">Turned</div>
<div id="grow"></div>
<div id="lean"></div>
</body>
</html>
"""

P2 = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<title>Portrait page</title>
<meta name="viewport" content="width = 600 ; height = 800"/>
<style>
html, body { margin: 0; padding: 0; }
body { background-color: #fffbe6; font-family: "DejaVu Sans"; font-size: 18px;
       line-height: 24px; color: #1b1b1b; }
h1 { margin: 0; padding: 40px 40px 20px 40px; font-size: 32px; line-height: 40px;
     font-weight: normal; background-color: #264653; color: #ffffff; }
p { margin: 20px 40px; }
#shifted { position: relative; top: 10px; left: 30px; margin: 20px 40px; height: 60px;
           background-color: #e9c46a; }
#clip { margin: 20px 40px; width: 200px; height: 80px; overflow: hidden;
        background-color: #2a9d8f; }
#clip div { width: 400px; height: 200px; background-color: #f4a261; margin: 0 0 0 20px; }
#corner { position: absolute; right: 20px; bottom: 20px; width: 100px; height: 60px;
          background-color: #e76f51; }
#matrix { position: absolute; top: 400px; left: 60px; width: 120px; height: 80px;
          background-color: #7d3c98; transform: matrix(0.9, 0.3, -0.2, 1.1, 30, 10); }
#hinge { position: absolute; top: 410px; left: 300px; width: 120px; height: 120px;
         background-color: #117a65; transform: rotate(0.05turn); transform-origin: 0 100%; }
#outer { position: absolute; top: 560px; left: 60px; width: 200px; height: 100px;
         background-color: #f1c40f; transform: rotate(-8deg); }
#inner { position: absolute; top: 20px; left: 20px; width: 60px; height: 30px;
         background-color: #000080; transform: translateX(10px) rotate(90deg); }
#tag { position: absolute; top: 700px; left: 40px; padding: 6px 10px;
       background-color: #d4ac0d; }
#tag2 { position: absolute; top: 420px; right: 30px; padding: 6px 10px;
        background-color: #a04000; color: #ffffff; }
</style>
</head>
<body>
<h1>A portrait page</h1>
<p>Text in the normal flow of a fixed-layout page wraps at its viewport, never at the reader's margins.</p>
<div id="shifted"></div>
<div id="clip"><div>Overflowing content is cut at the edge of its box.</div></div>
<div id="corner"></div>
<div id="matrix"></div>
<div id="hinge"></div>
<div id="outer"><div id="inner"></div></div>
<div id="tag">Shrink to fit</div>
<div id="tag2">Anchored right</div>
</body>
</html>
"""

P3 = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml">
<head><title>Reflowable chapter</title></head>
<body>
<h1>A reflowable chapter</h1>
""" + "\n".join(
    f"<p>Paragraph {i}: this chapter overrides the package's pre-paginated layout with "
    "rendition:layout-reflowable, so it flows into the reader's pages and margins like any "
    "reflowable book, one page after another.</p>" for i in range(1, 13)) + """
</body>
</html>
"""


def main():
    files = [("mimetype", b"application/epub+zip"), ("META-INF/container.xml", CONTAINER),
             ("OPS/package.opf", OPF), ("OPS/nav.xhtml", NAV), ("OPS/p1.xhtml", P1),
             ("OPS/p2.xhtml", P2), ("OPS/p3.xhtml", P3),
             ("OPS/checker.png", png(100, 75, checker))]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(OUT, "w") as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2026, 12, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            z.writestr(info, data.encode() if isinstance(data, str) else data)
    print(OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
