#!/usr/bin/env python3
"""Vertical writing fixtures (issue #13) for Tests/QuireTests/VerticalTests.swift.

vertical-jlreq.epub: real text — the first paragraphs of three chapters of the W3C
"Requirements for Japanese Text Layout" (../shared/corpus/jlreq-in-japanese.epub, W3C
document licence) — set `writing-mode: vertical-rl` with
`page-progression-direction="rtl"`, with ruby (<ruby>/<rb>/<rt>/<rp>) added on a few
words, emphasis marks on one phrase and tate-chu-yoko on two-digit numbers.
source.txt next to it holds the running text the pages must show, in order (ruby text
left out: it is annotation, not running text).

Small XHTML fixtures for single features: tcy.xhtml (text-combine-upright),
orientation.xhtml (mixed / upright / sideways Latin), emphasis.xhtml (text-emphasis),
linebreak.xhtml (line-break strict vs loose on the same text), ruby.xhtml and
ruby-horizontal.xhtml (mono, jukugo and spaced-out ruby, <rtc>, ruby-position),
flow.xhtml with picture.png (an image taller than the column, an inline image, a table).

Usage: scripts/make-vertical-fixture.py [corpus-dir]   (from the package root)
"""
import html
import os
import re
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/QuireTests/Fixtures/vertical")
CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "../shared/corpus")

CHAPTERS = [
    ("vertical_writing_mode_and_horizontal_writing_mode", 3),
    ("ruby_and_emphasis_dots", 3),
    ("handling_of_tatechuyoko", 1),
]
# (word, reading): the first occurrence in each chapter gets ruby (mono/group ruby).
RUBY = [("組版", "くみはん"), ("漢字", "かんじ"), ("親文字", "おやもじ"), ("縦中横", "たてちゅうよこ")]
EMPHASIS = "原則として"

STYLE = """html { writing-mode: vertical-rl; -epub-writing-mode: vertical-rl; }
body { font-family: serif; line-height: 1.75; }
p { text-indent: 1em; margin: 0; }
h2 { font-size: 1.3em; margin: 0 0 1em 0; }
.em { text-emphasis: filled sesame; -epub-text-emphasis: filled sesame; }
.tcy { text-combine-upright: digits 2; -epub-text-combine: horizontal; }
"""


def paragraphs(xhtml, count):
    """The first `count` body paragraphs (not the notes' "注1）" labels), as plain text."""
    out = []
    for p in re.findall(r"<p[^>]*>(.*?)</p>", xhtml, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", p)).strip()
        text = re.sub(r"\s+", "", text)
        if text and not re.fullmatch(r"注\d+）", text):
            out.append(text)
        if len(out) == count:
            break
    return out


def heading(xhtml):
    m = re.search(r"<h[1-6][^>]*>(.*?)</h[1-6]>", xhtml, re.S)
    return re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", "", m.group(1))))


def decorate(text, used):
    """Markup for one paragraph and its running text (what the pages must show)."""
    spans = []  # (start, end, kind, extra)
    for word, reading in RUBY:
        i = text.find(word)
        if word not in used and i >= 0:
            used.add(word)
            spans.append((i, i + len(word), "ruby", reading))
    i = text.find(EMPHASIS)
    if "em" not in used and i >= 0:
        used.add("em")
        spans.append((i, i + len(EMPHASIS), "em", None))
    for m in re.finditer(r"(?<!\d)\d{2}(?!\d)", text):
        spans.append((m.start(), m.end(), "tcy", None))
    spans.sort()
    markup, at = [], 0
    for start, end, kind, extra in spans:
        if start < at:
            continue
        markup.append(html.escape(text[at:start]))
        body = html.escape(text[start:end])
        if kind == "ruby":
            markup.append(f"<ruby><rb>{body}</rb><rp>（</rp><rt>{extra}</rt><rp>）</rp></ruby>")
        elif kind == "em":
            markup.append(f'<span class="em">{body}</span>')
        else:
            markup.append(f'<span class="tcy">{body}</span>')
        at = end
    markup.append(html.escape(text[at:]))
    return "".join(markup), text


def page(title, body, css="style.css"):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="ja" lang="ja">
<head><meta charset="UTF-8"/><title>{html.escape(title)}</title><link rel="stylesheet" href="{css}"/></head>
<body>
{body}
</body>
</html>
"""


def epub(path, chapters):
    manifest = "\n".join(
        f'<item id="c{k}" href="c{k}.xhtml" media-type="application/xhtml+xml"/>'
        for k in range(len(chapters)))
    spine = "\n".join(f'<itemref idref="c{k}"/>' for k in range(len(chapters)))
    nav_items = "".join(
        f'<li><a href="c{k}.xhtml">{html.escape(t)}</a></li>' for k, (t, _) in enumerate(chapters))
    opf = f"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" xml:lang="ja">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">urn:quire:vertical-jlreq</dc:identifier>
<dc:title>日本語組版処理の要件（縦組抜粋）</dc:title>
<dc:language>ja</dc:language>
<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
</metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="css" href="style.css" media-type="text/css"/>
{manifest}
</manifest>
<spine page-progression-direction="rtl">
{spine}
</spine>
</package>
"""
    nav = page("目次", f'<nav epub:type="toc"><ol>{nav_items}</ol></nav>')
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype", (2026, 1, 1, 0, 0, 0)), "application/epub+zip")

        def put(name, data):
            info = zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)

        put("META-INF/container.xml", """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
""")
        put("OEBPS/package.opf", opf)
        put("OEBPS/nav.xhtml", nav)
        put("OEBPS/style.css", STYLE)
        for k, (title, body) in enumerate(chapters):
            put(f"OEBPS/c{k}.xhtml", page(title, body))


# Small kana, ー and iteration marks on every other character: strict and loose break
# differently in a narrow column.
KANA = "ちょっとフェッチャーっぽいシャッター、キャッチャーはジャッジャッと々々ゝゞ。" * 2


# Ruby (CSS Ruby 1, JLREQ §3.3): mono ruby per character, jukugo ruby from <rb>/<rt> pairs,
# a long annotation between kanji (the base is spaced out) and between kana (it overhangs
# them), a second annotation in <rtc> on the other side, and ruby-position under.
RUBY_CSS = " .under { -epub-ruby-position: under; ruby-position: under; }"
RUBY_BODY = (
    '<p>モノルビ：<ruby>漢<rp>（</rp><rt>かん</rt><rp>）</rp>字<rt>じ</rt></ruby>を読む。</p>'
    '<p>熟語ルビ：<ruby><rb>熟</rb><rb>語</rb><rp>（</rp><rt>じゅく</rt><rt>ご</rt><rp>）</rp></ruby>の例。</p>'
    '<p>漢字間：字<ruby>鬱<rt>ゆううつ</rt></ruby>字、仮名間：の<ruby>鬱<rt>ゆううつ</rt></ruby>が。</p>'
    '<p>両側：<ruby><rb>東京</rb><rt>とうきょう</rt><rtc><rt>Tokyo</rt></rtc></ruby>に行く。</p>'
    '<p class="under">下側：<ruby>振仮名<rt>ふりがな</rt></ruby>を付ける。</p>'
)


def picture_png(width=160, height=400):
    """A tall test picture whose orientation shows: a black band along the top, a grey band
    down the left side, white elsewhere (grayscale PNG, written with zlib alone)."""
    import struct
    import zlib
    rows = []
    for y in range(height):
        row = bytes(0 if y < height // 8 else 128 if x < width // 4 else 255 for x in range(width))
        rows.append(b"\0" + row)

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


# Images and tables in vertical flow: a tall picture taller than the column (fitted to the
# column's height, upright), the same picture 40 px wide inline, and a 2×2 table.
FLOW_BODY = (
    '<p>図の前の文。</p><p class="fig"><img src="picture.png" alt="図"/></p>'
    '<p>行内の図<img src="picture.png" alt="小" style="width: 16px"/>を含む文。</p>'
    '<table><tr><td>一行一列</td><td>一行二列</td></tr><tr><td>二行一列</td><td>二行二列</td></tr></table>'
    '<p>表の後の文。</p>'
)


def feature_fixtures():
    head = 'html { writing-mode: vertical-rl; } body { font-family: serif; line-height: 1.8; } p { margin: 0 0 0.5em 0; }'
    files = {
        "tcy": (head + " .tcy { text-combine-upright: all; } .d2 { text-combine-upright: digits 2; }"
                " .d4 { -webkit-text-combine-upright: digits 4; }",
                '<p>平成<span class="tcy">23</span>年<span class="tcy">12</span>月<span class="tcy">!?</span></p>'
                '<p class="d2">第12回は3月31日と2026年に開く。</p>'
                '<p class="d4">西暦2026年の第100回。</p>'),
        "orientation": (head + " .up { text-orientation: upright; } .side { text-orientation: sideways; }"
                        " .epub { -epub-text-orientation: upright; }",
                        '<p>mixed: 日本語とLatin text、数字123。</p>'
                        '<p class="up">upright: 日本語とLatin、ABC。</p>'
                        '<p class="side">sideways: 日本語とLatin、ABC。</p>'
                        '<p class="epub">EPUB</p>'),
        "emphasis": (head + " .s { text-emphasis: sesame; } .d { text-emphasis: filled dot red; }"
                     " .c { -epub-text-emphasis-style: open circle; } .dc { text-emphasis-style: double-circle; }"
                     " .t { text-emphasis-style: triangle; text-emphasis-position: under left; }"
                     " .x { text-emphasis-style: '*'; text-emphasis-color: #0066cc; }",
                     '<p>ごま<span class="s">強調する</span>文字。</p>'
                     '<p>黒丸<span class="d">強調する</span>文字。</p>'
                     '<p>白丸<span class="c">強調する</span>文字。</p>'
                     '<p>二重丸<span class="dc">強調する</span>文字。</p>'
                     '<p>三角<span class="t">強調する</span>文字。</p>'
                     '<p>文字列<span class="x">強調する</span>文字。</p>'),
        "linebreak": (head + " .strict { line-break: strict; } .loose { line-break: loose; }",
                      f'<p class="strict">{KANA}</p><p class="loose">{KANA}</p>'),
        "ruby": (head + RUBY_CSS, RUBY_BODY),
        "ruby-horizontal": (head.replace("vertical-rl", "horizontal-tb") + RUBY_CSS, RUBY_BODY),
        "flow": (head + " td { border: 1px solid black; padding: 2px; }", FLOW_BODY),
    }
    with open(os.path.join(OUT, "picture.png"), "wb") as f:
        f.write(picture_png())
    for name, (css, body) in files.items():
        with open(os.path.join(OUT, name + ".xhtml"), "w", encoding="utf-8") as f:
            f.write(page(name, body, css="").replace('<link rel="stylesheet" href=""/>',
                                                     f"<style>{css}</style>"))


def main():
    os.makedirs(OUT, exist_ok=True)
    with zipfile.ZipFile(os.path.join(CORPUS, "jlreq-in-japanese.epub")) as z:
        chapters, running = [], []
        for name, count in CHAPTERS:
            xhtml = z.read(f"OEBPS/xhtml/{name}.xhtml").decode("utf-8")
            title = heading(xhtml)
            used = set()
            body = [f"<h2>{html.escape(title)}</h2>"]
            text = [title]
            for p in paragraphs(xhtml, count):
                markup, plain = decorate(p, used)
                body.append(f"<p>{markup}</p>")
                text.append(plain)
            chapters.append((title, "\n".join(body)))
            running.append("\n".join(text))
    epub(os.path.join(OUT, "vertical-jlreq.epub"), chapters)
    with open(os.path.join(OUT, "source.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(running) + "\n")
    feature_fixtures()


if __name__ == "__main__":
    main()
