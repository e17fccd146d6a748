#!/usr/bin/env python3
"""Builds samples/css-fixtures.epub: one chapter per CSS feature group of issue #10.

The book is the fixture the golden pages, the corpus invariants and the Chromium oracle
run over. Everything is generated here from the standard library (PNG images drawn with
zlib, the EPUB zipped with fixed timestamps), so the output is byte-identical on every
run: `python3 scripts/make-css-fixtures.py` rewrites samples/css-fixtures.epub.

Each chapter is a small real-book-like page of one feature group: boxes, floats, tables,
code, selectors and generated content, text, lists, images, breaks, footnotes, colour.
"""

import os
import struct
import sys
import zipfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "samples", "css-fixtures.epub")


def png(width, height, pixel):
    """An RGB PNG; pixel(x, y) -> (r, g, b)."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            raw.extend(pixel(x, y))

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def portrait(x, y):
    # A 243 x 320 "portrait": sky above a hill, a sun.
    if (x - 170) ** 2 + (y - 70) ** 2 < 30 ** 2:
        return (240, 200, 40)
    if y > 220 - (x - 120) ** 2 / 300:
        return (60, 130, 60)
    return (150, 190, 235)


def tile(x, y):
    # A 16 x 16 checker tile for repeated backgrounds.
    return (235, 225, 200) if (x // 8 + y // 8) % 2 == 0 else (250, 245, 230)


def small(x, y):
    # A 100 x 50 badge: a framed blue field.
    if x < 3 or y < 3 or x >= 97 or y >= 47:
        return (20, 20, 80)
    return (90, 120, 200)


def icon(x, y):
    # A 24 x 24 round icon for inline images.
    return (200, 60, 60) if (x - 12) ** 2 + (y - 12) ** 2 < 100 else (255, 255, 255)


IMAGES = {
    "images/portrait.png": png(243, 320, portrait),
    "images/tile.png": png(16, 16, tile),
    "images/badge.png": png(100, 50, small),
    "images/icon.png": png(24, 24, icon),
}

LOREM = ("It was the best of times, it was the worst of times, it was the age of wisdom, "
         "it was the age of foolishness, it was the epoch of belief, it was the epoch of "
         "incredulity, it was the season of Light, it was the season of Darkness.")

CSS = """
body { margin: 0; font-family: serif; }
p { margin: 0; text-indent: 1.2em; text-align: justify; }
h1 { font-size: 1.5em; margin: 0 0 0.8em; text-align: center; }
h2 { font-size: 1.2em; margin: 1em 0 0.5em; }
"""

CHAPTERS = []


def chapter(slug, title, body, css=""):
    CHAPTERS.append((slug, title, body, css))


chapter("boxes", "Boxes", f"""
<p>Ordinary text before the boxes. {LOREM}</p>
<div class="note"><p>A note with a grey fill, a 2px solid border and 8px of padding. {LOREM}</p></div>
<div class="dashed"><p>Dashed border, rounded corners, centred at 70% width.</p></div>
<div class="dotted"><p>Dotted border, max-width 12em, margin auto.</p></div>
<div class="double"><p>Double border on the left only, padding-left 1em.</p></div>
<div class="outer"><div class="inner"><p>Margins collapse between a parent without borders and its first child: one 1.5em gap above.</p></div></div>
<div class="sized"><p>A border-box of exactly 240px including padding and borders.</p></div>
<div class="tiled"><p>A background image repeated behind this text. {LOREM}</p></div>
<div class="gradient"><p>A linear gradient from pale blue to white.</p></div>
<div class="clip"><p>This box is 3em tall with overflow hidden: {LOREM} {LOREM}</p></div>
<p>Text with an <span class="inline-block">inline block</span> in it and a <span class="mark">highlighted phrase</span> across words.</p>
""", """
.note { background-color: #eeeeee; border: 2px solid #333; padding: 8px; margin: 1em 0; }
.dashed { border: 1px dashed #000; border-radius: 6px; width: 70%; margin: 1em auto; padding: 4px; }
.dotted { border: 3px dotted #444; max-width: 12em; margin: 1em auto; }
.double { border-left: 6px double #000; padding-left: 1em; margin: 1em 0; }
.outer { margin-top: 1.5em; }
.inner { margin-top: 1em; }
.sized { box-sizing: border-box; width: 240px; padding: 10px; border: 5px solid #666; margin: 1em 0; }
.tiled { background: #fff url(../images/tile.png) repeat; padding: 6px; margin: 1em 0; }
.gradient { background-image: linear-gradient(to bottom, #cfe3ff, #ffffff); padding: 6px; }
.clip { height: 3em; overflow: hidden; border: 1px solid #000; margin: 1em 0; }
.inline-block { display: inline-block; border: 1px solid #000; padding: 0 4px; }
.mark { background-color: #ffee88; }
""")

chapter("floats", "Floats", f"""
<p><img class="left" src="../images/badge.png" alt="badge"/>{LOREM} {LOREM}</p>
<div class="sidebar"><p>A sidebar floated right, 40% wide, with a border.</p></div>
<p>{LOREM} {LOREM} {LOREM}</p>
<p class="clear">This paragraph clears both floats.</p>
<p class="dropcap">Once upon a time, a drop cap began this paragraph with a large first letter floated to the left, three lines deep. {LOREM}</p>
""", """
img.left { float: left; margin: 0 0.5em 0.5em 0; }
.sidebar { float: right; width: 40%; border: 1px solid #000; padding: 4px; margin-left: 0.5em; }
.clear { clear: both; }
.dropcap::first-letter { float: left; font-size: 3.2em; line-height: 1; margin-right: 0.1em; }
""")

rows = "\n".join(
    f"<tr><td>{i}</td><td>Item number {i}</td><td>{i * 37 % 101}.{i % 10}0</td></tr>"
    for i in range(1, 61))
chapter("tables", "Tables", f"""
<table class="grid">
<caption>Table 1. Automatic column widths</caption>
<thead><tr><th>Name</th><th>Empty</th><th>Sound</th></tr></thead>
<tbody>
<tr><td>Pekee</td><td></td><td>PEKEE-NUEE-NUEE,</td></tr>
<tr><td>A much longer first cell that wraps</td><td></td><td>ok</td></tr>
<tr><td colspan="2">Spans two columns</td><td rowspan="2">Spans two rows</td></tr>
<tr><td>a</td><td>b</td></tr>
</tbody>
</table>
<p>Between the tables.</p>
<table class="separate">
<tr><th>Left</th><th>Right</th></tr>
<tr><td style="vertical-align: middle">middle</td><td>{LOREM}</td></tr>
</table>
<h2>A long table with a repeated header</h2>
<table class="long">
<thead><tr><th>#</th><th>Item</th><th>Price</th></tr></thead>
<tbody>
{rows}
</tbody>
</table>
""", """
table { margin: 1em 0; }
table.grid { border-collapse: collapse; }
table.grid td, table.grid th { border: 1px solid #000; padding: 2px 4px; }
table.separate { border: 2px solid #000; border-spacing: 4px; width: 100%; }
table.separate td, table.separate th { border: 1px dashed #000; padding: 3px; }
table.long { border-collapse: collapse; width: 100%; }
table.long th { border-bottom: 2px solid #000; }
table.long td { border-bottom: 1px solid #999; padding: 1px 3px; }
table.long td:nth-child(3) { text-align: right; }
""")

chapter("code", "Code and white space", """
<p>Inline <code>identifierWithAVeryLongNameThatShouldNotBeHyphenated</code> and a URL
http://www.example.com/a/very/long/path/that/should/never/be/hyphenated/index.html in running text.</p>
<pre class="listing">&lt;package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id"&gt;
  &lt;metadata xmlns:dc="http://purl.org/dc/elements/1.1/"&gt;
      &lt;dc:identifier id="pub-id"&gt;urn:uuid:A1B0D67E-2E81-4DF5-9E67-A64CBE366809&lt;/dc:identifier&gt;
  &lt;/metadata&gt;
&lt;/package&gt;</pre>
<pre class="wrap">A pre-wrap block whose long line wraps at the edge instead of running past it: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</pre>
<p class="preline">pre-line keeps
line breaks    but collapses    spaces.</p>
<p class="nowrap">nowrap: this line does not wrap however long it is and so it is clipped at the edge of the page.</p>
<p class="breakall">word-break: break-all splits anywhere: Supercalifragilisticexpialidocious.</p>
<p class="anywhere">overflow-wrap: anywhere: Pneumonoultramicroscopicsilicovolcanoconiosis.</p>
""", """
pre { font-family: monospace; font-size: 0.8em; margin: 1em 0; }
pre.listing { background-color: #f0f0f0; border: 1px solid #ccc; padding: 6px; word-wrap: break-word; white-space: pre-wrap; }
pre.wrap { white-space: pre-wrap; }
code { font-family: monospace; }
.preline { white-space: pre-line; }
.nowrap { white-space: nowrap; }
.breakall { word-break: break-all; }
.anywhere { overflow-wrap: anywhere; }
p { hyphens: auto; }
""")

chapter("selectors", "Selectors and generated content", """
<div class="poem">
<p>First line of the poem, not indented.</p>
<p>Second line, indented by nth-child(even).</p>
<p>Third line.</p>
<p>Fourth line, indented.</p>
</div>
<h2 class="numbered">Numbered heading</h2>
<h2 class="numbered">Another numbered heading</h2>
<p class="note">The note gets a generated “Note:” label.</p>
<p>She said <q>hello, <q>nested</q> world</q> and left.</p>
<p lang="fr">Elle a dit <q>bonjour</q>.</p>
<p lang="de">Er sagte <q>guten Tag</q>.</p>
<p><a href="http://example.com" class="ext">a link</a> with its href after it.</p>
<p class="x-first">:not(.x-first) is false here.</p>
<p data-kind="warning-box">Attribute selectors: ^= $= *= ~= |=.</p>
<h2>Heading</h2>
<p>The paragraph right after a heading (+) is not indented.</p>
<p>A later sibling (~) is italic.</p>
""", """
.poem p { text-indent: 0; }
.poem p:nth-child(even) { text-indent: 2em; }
.poem p:first-of-type { font-weight: bold; }
.poem p:last-child { font-style: italic; }
body { counter-reset: section; }
h2.numbered { counter-increment: section; }
h2.numbered::before { content: "§ " counter(section, upper-roman) ". "; }
p.note::before { content: "Note: "; font-weight: bold; }
a.ext::after { content: " (" attr(href) ")"; }
p:not(.x-first) { margin-bottom: 0.2em; }
p[data-kind^="warning"] { color: #a00; }
p[data-kind$="box"] { text-decoration: underline; }
h2 + p { text-indent: 0; }
h2 ~ p { font-style: italic; }
""")

chapter("text", "Text", f"""
<p class="spaced">Letter-spacing of 0.1em stretches these letters.</p>
<p class="words">Word-spacing of 0.5em widens the gaps between words.</p>
<p class="under">Underlined text runs continuously across the spaces between words.</p>
<p class="over">Overline and <span class="strike">line-through</span> decorations.</p>
<p class="low">Underline position under: gjpqy.</p>
<p class="last">{LOREM} The last line is centred by text-align-last.</p>
<p class="hanging">Hanging indent: the first line starts at the margin and the others are indented 2em. {LOREM}</p>
<p class="caps">Small Caps With Real Glyphs And 1234567890.</p>
<p class="oldstyle">Old-style figures 1234567890 and tabular figures.</p>
<p>Water is H<sub>2</sub>O and E = mc<sup>2</sup>; an icon <img class="middle" src="../images/icon.png" alt="icon"/> in the middle.</p>
<div class="columns"><p>{LOREM} {LOREM} {LOREM}</p></div>
""", """
.spaced { letter-spacing: 0.1em; }
.words { word-spacing: 0.5em; }
.under { text-decoration: underline; }
.over { text-decoration: overline; }
.strike { text-decoration: line-through; }
.low { text-decoration: underline; text-underline-position: under; }
.last { text-align-last: center; }
.hanging { text-indent: -2em; padding-left: 2em; }
.caps { font-variant: small-caps; }
.oldstyle { font-variant-numeric: oldstyle-nums tabular-nums; }
img.middle { vertical-align: middle; }
.columns { column-count: 2; column-gap: 1em; }
""")

chapter("lists", "Lists", """
<ol><li>decimal one</li><li>decimal two</li></ol>
<ol style="list-style-type: decimal-leading-zero"><li>leading zero</li><li>two</li></ol>
<ol style="list-style-type: lower-roman" start="4"><li>four</li><li>five</li></ol>
<ol style="list-style-type: upper-alpha"><li>A</li><li>B</li></ol>
<ol style="list-style-type: lower-greek"><li>alpha</li><li>beta</li><li>gamma</li></ol>
<ol reversed="reversed"><li>three</li><li>two</li><li>one</li></ol>
<ol><li>one</li><li value="10">ten</li><li>eleven</li></ol>
<ul style="list-style-type: circle"><li>circle</li></ul>
<ul style="list-style-type: square"><li>square</li></ul>
<ul style="list-style-type: none"><li>no marker</li></ul>
<ul style="list-style-position: inside"><li>inside marker, the text wraps under the marker when it is long enough to take more than one line.</li></ul>
<ol style="list-style-type: cjk-decimal"><li>一</li><li>二</li></ol>
""")

chapter("images", "Images", """
<p>A 243 × 320 portrait alone in a block stays 243 px wide:</p>
<div><img src="../images/portrait.png" alt="portrait"/></div>
<p>A 100 × 50 badge stays 100 × 50:</p>
<p><img src="../images/badge.png" alt="badge"/></p>
<p>The same badge at width 50%:</p>
<p><img src="../images/badge.png" alt="badge" style="width: 50%"/></p>
<p>A cover image with object-fit: cover in a 200 × 100 box:</p>
<p><img src="../images/portrait.png" alt="cover" style="width: 200px; height: 100px; object-fit: cover"/></p>
""")

chapter("breaks", "Breaks", f"""
<p>{LOREM} {LOREM} {LOREM} {LOREM} {LOREM}</p>
<h2>A heading with a long title that must never be hyphenated or split across pages</h2>
<p>{LOREM} {LOREM}</p>
<div class="keep"><p>This block avoids breaking inside. {LOREM} {LOREM}</p></div>
<h2 class="new-page">A heading that starts a new page</h2>
<p class="wo">{LOREM} {LOREM} {LOREM}</p>
""", """
.keep { break-inside: avoid; border: 1px solid #000; }
.new-page { break-before: page; }
.wo { widows: 3; orphans: 3; }
""")

chapter("footnotes", "Footnotes", f"""
<p>Whales are mammals.<a epub:type="noteref" href="#n1" id="r1">1</a> {LOREM}</p>
<p>The harpoon was old.<a epub:type="noteref" role="doc-noteref" href="#n2" id="r2">2</a> {LOREM}</p>
<aside epub:type="footnote" role="doc-footnote" id="n1"><p><a href="#r1">1</a> Cetaceans breathe air.</p></aside>
<aside epub:type="footnote" id="n2"><p><a href="#r2">2</a> It had been forged in Nantucket.</p></aside>
<p>{LOREM}</p>
""")

chapter("colour", "Colour", """
<p class="red">Red text.</p>
<p><span class="green">Green</span>, <span class="blue">blue</span> and <span class="hsl">hsl()</span> spans.</p>
<div class="boxed"><p>White text on a dark blue box with an orange border.</p></div>
""", """
body { background-color: #fdf6e3; }
.red { color: #c00000; }
.green { color: green; }
.blue { color: #0000ff; }
.hsl { color: hsl(280, 60%, 40%); }
.boxed { background-color: #123d6a; color: #ffffff; border: 3px solid orange; padding: 6px; }
""")


def xhtml(title, body, css):
    style = f"<style type=\"text/css\">{css}</style>" if css else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en" lang="en">
<head><title>{title}</title><link rel="stylesheet" type="text/css" href="../css/book.css"/>{style}</head>
<body><h1>{title}</h1>{body}</body>
</html>
"""


def package():
    items = [
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
        '<item id="css" href="css/book.css" media-type="text/css"/>',
    ]
    for href in IMAGES:
        ident = href.split("/")[-1].replace(".", "-")
        items.append(f'<item id="{ident}" href="{href}" media-type="image/png"/>')
    spine = []
    for slug, _, _, _ in CHAPTERS:
        items.append(f'<item id="{slug}" href="text/{slug}.xhtml" media-type="application/xhtml+xml"/>')
        spine.append(f'<itemref idref="{slug}"/>')
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" xml:lang="en">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">urn:quire:css-fixtures:1</dc:identifier>
<dc:title>Quire CSS fixtures</dc:title>
<dc:language>en</dc:language>
<dc:creator>Quire</dc:creator>
<meta property="dcterms:modified">2026-11-30T00:00:00Z</meta>
</metadata>
<manifest>
{chr(10).join(items)}
</manifest>
<spine>
{chr(10).join(spine)}
</spine>
</package>
"""


def nav():
    entries = "".join(f'<li><a href="text/{slug}.xhtml">{title}</a></li>' for slug, title, _, _ in CHAPTERS)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>Contents</title></head>
<body><nav epub:type="toc"><ol>{entries}</ol></nav></body>
</html>
"""


CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""


def main():
    files = [("META-INF/container.xml", CONTAINER.encode()), ("OPS/package.opf", package().encode()),
             ("OPS/nav.xhtml", nav().encode()), ("OPS/css/book.css", CSS.encode())]
    for slug, title, body, css in CHAPTERS:
        files.append((f"OPS/text/{slug}.xhtml", xhtml(title, body, css).encode()))
    files += [(f"OPS/{href}", data) for href, data in IMAGES.items()]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with zipfile.ZipFile(OUT, "w") as z:
        info = zipfile.ZipInfo("mimetype", date_time=(2026, 11, 30, 0, 0, 0))
        z.writestr(info, b"application/epub+zip", compress_type=zipfile.ZIP_STORED)
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2026, 11, 30, 0, 0, 0))
            info.external_attr = 0o644 << 16
            z.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    print(f"wrote {os.path.relpath(OUT, ROOT)}: {len(CHAPTERS)} chapters", file=sys.stderr)


if __name__ == "__main__":
    main()
