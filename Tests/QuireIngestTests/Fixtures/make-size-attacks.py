#!/usr/bin/env python3
"""Writes one input per size-attack class of issue #9, and cases.json describing how to run
each one and what outcome to expect.

    python3 Tests/QuireIngestTests/Fixtures/make-size-attacks.py OUTDIR [--scale ci|full]
        [--only NAME,NAME] [--font PATH]

Design: the inputs are tiny to ship (most compress to a few KiB) but expand to the sizes of
the issue's table, so nothing large is committed; the files are generated at test or
benchmark time. Everything is deterministic (fixed ZIP timestamps, a fixed-seed LCG, no
`random`), stdlib only. `--scale ci` picks sizes that run in seconds in a debug build (the
Swift tests in Tests/QuireTests/SizeAttackTests.swift use them); `--scale full` picks the
sizes the issue reports (scripts/size-attacks.sh runs them under ulimit and /usr/bin/time).

cases.json is {scale, cases: [{name, title, args, expect, option?, width?, height?, margin?,
maxStderrBytes?, forbid?, timeout?}]} where `args`
is the `quire` argument list with the placeholders {dir} (OUTDIR) and {out} (a fresh output
path the runner chooses), and `expect` is one of:
  "layout"  exit 0 (or a clear 65), and with --boxes every text line within the measure
  "data"    exit 0 or a clear 65 naming the book
  "usage"   exit 64 (a clear line naming the option in `option`)
  "usage-or-ok"  exit 0, or 64 naming `option` (an option the program may cap or refuse)
  "font"    a clear 64/65/66 line naming --font (never exit 0, never Foundation text)
  "ok"      exit 0
"""
import argparse
import json
import os
import sys
import zipfile

# Fixed timestamp for every ZIP entry, so the archives are byte-identical across runs.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""

# Sizes per scale. Full sizes are the issue's; CI sizes keep each case to seconds in debug
# once the stage is linear. Combining marks and attributes stay at full size in CI: their
# inputs are tiny and today's cost is quadratic, so only a linear stage passes the tests'
# time budget.
SCALES = {
    "full": dict(word=5_000, paragraph=20_000_000, shy=1_400_000, tabs=2_000_000, br=200_000,
                 rules=2_000, elements=30_000, explosion=150_000_000, rows=10_000, cols=1_000,
                 clusters=20, marks=50_000, attributes=100_000, images=21, image_bytes=90_000,
                 chapters=2_014, chapter_words=960, small_chapters=32),
    "ci": dict(word=5_000, paragraph=60_000, shy=20_000, tabs=20_000, br=1_000,
               rules=200, elements=3_000, explosion=80_000, rows=100, cols=100,
               clusters=20, marks=50_000, attributes=100_000, images=21, image_bytes=20_000,
               chapters=12, chapter_words=960, small_chapters=2),
}

# The page and margins every layout case uses, so the runner knows the measure exactly.
PAGE_W, PAGE_H, MARGIN = 600, 800, 40
LAYOUT = ["--size", f"{PAGE_W}x{PAGE_H}", "--margins", str(MARGIN)]


class LCG:
    """A fixed-seed linear congruential generator (deterministic across Python versions)."""

    def __init__(self, seed=12345):
        self.state = seed

    def next(self, n):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 33) % n


WORDS = ("the of and a to in is was that he for it with as his on be at by had not are but "
         "from or have an they which one you were her all she there would their we him been "
         "has when who will more no if out so said what up its about into than them can only "
         "other new some could time these two may then do first any my now such like our over "
         "man me even most made after also did many before must through back years where much "
         "your way well down should because each just those people how too little state good "
         "very make world still own see men work long get here between both life being under "
         "never day same another know while last might us great old year off come since against "
         "go came right used take three quire hyphenation typesetting paragraph measure").split()


def words(n, rng):
    return " ".join(WORDS[rng.next(len(WORDS))] for _ in range(n))


def opf(n_chapters, title, css=False):
    items = "".join(
        f'\n    <item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>'
        for i in range(n_chapters))
    if css:
        items += '\n    <item id="css" href="style.css" media-type="text/css"/>'
    spine = "".join(f'<itemref idref="c{i}"/>' for i in range(n_chapters))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="uid">urn:uuid:9a9a9a9a-0000-4000-8000-000000000009</dc:identifier>
    <dc:title>{title}</dc:title>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">2020-01-01T00:00:00Z</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>{items}
  </manifest>
  <spine>{spine}</spine>
</package>"""


def nav(n_chapters):
    shown = min(n_chapters, 50)
    lis = "".join(f'<li><a href="c{i}.xhtml">Chapter {i + 1}</a></li>' for i in range(shown))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Nav</title></head>
<body><nav epub:type="toc"><ol>{lis}</ol></nav></body></html>"""


def xhtml(body, head=""):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter</title>{head}</head>
<body>{body}</body></html>"""


def write_epub(path, chapters, title="Size Attack", css=None):
    """chapters: a list of chapter bodies (str) or iterables of str chunks (streamed, so
    a 150 MB chapter is never held in memory twice)."""
    with zipfile.ZipFile(path, "w") as z:
        info = zipfile.ZipInfo("mimetype", ZIP_TIME)
        info.compress_type = zipfile.ZIP_STORED
        z.writestr(info, "application/epub+zip")

        def text(name, data):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)

        text("META-INF/container.xml", CONTAINER)
        text("OEBPS/content.opf", opf(len(chapters), title, css is not None))
        text("OEBPS/nav.xhtml", nav(len(chapters)))
        if css is not None:
            text("OEBPS/style.css", css)
        head = '<link rel="stylesheet" type="text/css" href="style.css"/>' if css else ""
        for i, body in enumerate(chapters):
            info = zipfile.ZipInfo(f"OEBPS/c{i}.xhtml", ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            if isinstance(body, str):
                z.writestr(info, xhtml(body, head))
                continue
            # Streamed: head, chunks, tail. force_zip64 lets an entry pass 2 GiB safely.
            with z.open(info, "w", force_zip64=True) as f:
                pre, post = xhtml("\x00", head).split("\x00")
                f.write(pre.encode())
                for chunk in body:
                    f.write(chunk.encode())
                f.write(post.encode())


def repeated(unit, count, per_chunk=100_000):
    """`unit` repeated `count` times, in chunks."""
    while count > 0:
        n = min(count, per_chunk)
        yield unit * n
        count -= n


# --- the classes of the table -------------------------------------------------


def unbreakable_word(d, s):
    rng = LCG(1)
    word = "".join("abcdefghijklmnopqrstuvwxyz"[rng.next(26)] for _ in range(s["word"]))
    write_epub(os.path.join(d, "unbreakable-word.epub"),
               [f"<p>Before the word.</p><p>{word}</p><p>After the word.</p>"])
    return case("unbreakable-word", f"a {s['word']:,}-character word with no break opportunity",
                ["render", "{dir}/unbreakable-word.epub", "-o", "{out}", "--boxes"] + LAYOUT,
                "layout")


def huge_paragraph(d, s):
    rng = LCG(2)
    path = os.path.join(d, "huge-paragraph.txt")
    with open(path, "w", encoding="utf-8") as f:
        written = 0
        while written < s["paragraph"]:
            chunk = words(2_000, rng) + " "
            f.write(chunk)
            written += len(chunk)
        f.write("\n")
    args = ["paginate", "{dir}/huge-paragraph.txt"] + LAYOUT
    if s is SCALES["ci"]:
        args = ["render", "{dir}/huge-paragraph.txt", "-o", "{out}", "--boxes", "--pages", "1"] + LAYOUT
    return case("huge-paragraph", f"one {s['paragraph']:,}-byte paragraph with spaces", args,
                "layout" if s is SCALES["ci"] else "data")


def shy_storm(d, s):
    # &#173; rather than &shy;: XHTML is parsed as XML, where &shy; is undefined without a DTD
    # (the chapter would go down the recovery path instead of the typesetter).
    write_epub(os.path.join(d, "shy-storm.epub"), [repeated("a&#173;", s["shy"])])
    return layout_case("shy-storm", f"{s['shy']:,} soft hyphens in one word", "shy-storm.epub",
                       s)


def shy_entity_storm(d, s):
    # The same storm written `&shy;`: undefined in XML without a DTD, so the chapter takes the
    # malformed-markup recovery path (the HTML parser) with 1.4 M entity references.
    write_epub(os.path.join(d, "shy-entity-storm.epub"), [repeated("a&shy;", s["shy"])])
    return layout_case("shy-entity-storm", f"{s['shy']:,} &shy; (undefined in XML) in one word",
                       "shy-entity-storm.epub", s)


def tab_storm(d, s):
    write_epub(os.path.join(d, "tab-storm.epub"),
               [iter(["<pre>", *repeated("x\t", s["tabs"]), "</pre>"])])
    return layout_case("tab-storm", f"{s['tabs']:,} tabs in a <pre>", "tab-storm.epub", s)


def br_storm(d, s):
    write_epub(os.path.join(d, "br-storm.epub"),
               [iter(["<p>", *repeated("a<br/>", s["br"]), "</p>"])])
    return layout_case("br-storm", f"{s['br']:,} <br/> in one paragraph", "br-storm.epub", s)


def css_matching(d, s):
    n_rules, n_elems = s["rules"], s["elements"]
    # Descendant selectors whose rightmost part (`span`) matches every element of the body:
    # without bucketing and an ancestor filter, every rule walks every span's 10 ancestors.
    rules = "\n".join(f"div.k{i} span {{ color: #{i % 256:02x}0000; }}" for i in range(n_rules))
    per_p = 10
    body = ["<div class='k0'>" + "<div>" * 8]
    for _ in range(0, n_elems, per_p):
        body.append("<p>" + "<span>w</span> " * per_p + "</p>")
    body.append("</div>" * 9)
    write_epub(os.path.join(d, "css-matching.epub"), ["".join(body)], css=rules)
    return case("css-matching", f"{n_rules:,} rules × {n_elems:,} elements",
                ["paginate", "{dir}/css-matching.epub"] + LAYOUT, "data")


def element_explosion(d, s):
    count = s["explosion"] // len("<p>a</p>")
    write_epub(os.path.join(d, "element-explosion.epub"), [repeated("<p>a</p>", count)])
    return case("element-explosion", f"{s['explosion']:,} bytes of <p>a</p>",
                ["paginate", "{dir}/element-explosion.epub"] + LAYOUT, "data")


def table(d, s):
    row = "<tr>" + "<td>a</td>" * s["cols"] + "</tr>"
    write_epub(os.path.join(d, "table.epub"),
               [iter(["<table>", *repeated(row, s["rows"], 100), "</table>"])])
    return case("table", f"a {s['rows']:,} × {s['cols']:,} table",
                ["paginate", "{dir}/table.epub"] + LAYOUT, "data")


def combining_marks(d, s):
    cluster = "a" + "\u0301" * s["marks"]
    body = "<p>" + " ".join(cluster for _ in range(s["clusters"])) + "</p>"
    write_epub(os.path.join(d, "combining-marks.epub"), [body])
    return layout_case("combining-marks", f"{s['clusters']} clusters × {s['marks']:,} U+0301",
                       "combining-marks.epub", s)


def attributes(d, s):
    attrs = " ".join(f'a{i}="x"' for i in range(s["attributes"]))
    write_epub(os.path.join(d, "attributes.epub"), [f"<p {attrs}>Many attributes.</p>"])
    return case("attributes", f"one element with {s['attributes']:,} attributes",
                ["paginate", "{dir}/attributes.epub"] + LAYOUT, "data")


def data_images(d, s):
    rng = LCG(3)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    imgs = []
    for i in range(s["images"]):
        payload = "".join(alphabet[rng.next(64)] for _ in range(s["image_bytes"]))
        imgs.append(f'<p>Image {i}: <img alt="" src="data:image/png;base64,{payload}"/></p>')
    write_epub(os.path.join(d, "data-images.epub"), ["".join(imgs)])
    c = case("data-images", f"{s['images']} undecodable data: images of {s['image_bytes']:,} bytes",
             ["render", "{dir}/data-images.epub", "-o", "{out}"] + LAYOUT, "data")
    c["maxStderrBytes"] = 8_192
    return c


def long_book(d, s):
    """About 3.3 pages a chapter at 600x800, 16 px: 2,014 chapters ≈ 6,600 pages; every
    other word in a span, so the XHTML is ~17 KB a chapter (~35 MB for the book)."""
    rng = LCG(4)
    chapters = []
    for i in range(s["chapters"]):
        paras = []
        left = s["chapter_words"]
        while left > 0:
            n = min(left, 40 + rng.next(80))
            left -= n
            # Every 10th word ends in U+E000 (private use, no font has it): a stream of
            # identical warnings, as the Devanagari book had (120 k of them).
            spans = " ".join(f'<span class="w">{w}</span>' if k % 2 else
                             (w + "\ue000" if k % 10 == 0 else w)
                             for k, w in enumerate(words(n, rng).split()))
            paras.append(f"<p>{spans}</p>")
        chapters.append(f"<h1>Chapter {i + 1}</h1>" + "".join(paras))
    write_epub(os.path.join(d, "long-book.epub"), chapters, title="Long Book",
               css="span.w { color: #000000; }\n")
    c = case("long-book", f"{s['chapters']:,} spine documents, whole-book render",
             ["render", "{dir}/long-book.epub", "-o", "{out}", "--size", f"{PAGE_W}x{PAGE_H}"],
             "ok")
    if s is SCALES["full"]:
        c["timeout"] = 1_500  # rendering ~6,600 pages takes minutes; the target is memory
    return c


# --- option cases (on a small ordinary book) ------------------------------------------


def small_book(d, chapters):
    """An ordinary book: `chapters` chapters of 12 paragraphs (a page or more each even on
    an 8192x8192 canvas, so a render has as many pages as chapters to spread over threads)."""
    rng = LCG(5)
    paras = "".join(f"<p>{words(90, rng)}</p>" for _ in range(12))
    write_epub(os.path.join(d, "small.epub"),
               [f"<h1>Chapter {i + 1}</h1>{paras}" for i in range(chapters)], title="Small")


def option_cases(d, s, font):
    small_book(d, s["small_chapters"])
    os.makedirs(os.path.join(d, "font-dir"), exist_ok=True)
    with open(font, "rb") as f:
        data = f.read()
    with open(os.path.join(d, "truncated.ttf"), "wb") as f:
        f.write(data[: len(data) // 3])
    small = "{dir}/small.epub"
    canvas = "8192x8192" if s is SCALES["full"] else "4096x4096"
    cases = [
        case("canvas-threads", f"render --size {canvas} --threads 256 --color rgb",
             ["render", small, "-o", "{out}", "--size", canvas, "--threads", "256",
              "--color", "rgb"] + ([] if s is SCALES["full"] else ["--pages", "1-2"]), "usage-or-ok",
             option="--threads"),
        case("frame-count", "flip --duration 600 --fps 240",
             ["flip", small, "--page", "1", "-o", "{out}", "--duration", "600", "--fps", "240"],
             "usage", option="--fps"),
        dict(case("font-size-400", "render --font-size 400",
                  ["render", small, "-o", "{out}", "--font-size", "400"], "usage-or-ok",
                  option="--font-size"), forbid=["margin"]),
        case("font-dir", "--font DIR", ["render", small, "-o", "{out}", "--font", "{dir}/font-dir"],
             "font", option="--font"),
        case("font-dev-zero", "--font /dev/zero",
             ["render", small, "-o", "{out}", "--font", "/dev/zero"], "font", option="--font"),
        case("font-truncated", "--font of a truncated TTF",
             ["render", small, "-o", "{out}", "--font", "{dir}/truncated.ttf"], "font",
             option="--font"),
        case("output-empty", '-o ""', ["render", small, "-o", ""], "usage", option="-o"),
    ]
    return cases


def case(name, title, args, expect, option=None):
    c = {"name": name, "title": title, "args": args, "expect": expect}
    if option:
        c["option"] = option
    if expect == "layout":
        c.update(width=PAGE_W, height=PAGE_H, margin=MARGIN)
    return c


def layout_case(name, title, file, s):
    """Full scale: paginate (the cost is layout); CI: render page 1 with boxes, whole-book
    line boxes in the manifest, so the measure can be checked on every line."""
    if s is SCALES["full"]:
        return case(name, title, ["paginate", "{dir}/" + file] + LAYOUT, "data")
    return case(name, title,
                ["render", "{dir}/" + file, "-o", "{out}", "--boxes", "--pages", "1"] + LAYOUT,
                "layout")


CLASSES = [unbreakable_word, huge_paragraph, shy_storm, shy_entity_storm, tab_storm, br_storm, css_matching,
           element_explosion, table, combining_marks, attributes, data_images, long_book]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_font = os.path.join(here, "..", "..", "..", "fonts", "DejaVuSans.ttf")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir")
    p.add_argument("--scale", choices=sorted(SCALES), default="ci")
    p.add_argument("--only", default="", help="comma-separated case names")
    p.add_argument("--font", default=os.path.normpath(default_font),
                   help="a TTF to truncate for the font-truncated case")
    a = p.parse_args()
    s = SCALES[a.scale]
    os.makedirs(a.outdir, exist_ok=True)
    only = set(filter(None, a.only.split(",")))
    cases = []
    for make in CLASSES:
        name = make.__name__.replace("_", "-")
        if only and name not in only:
            continue
        cases.append(make(a.outdir, s))
    options = option_cases(a.outdir, s, a.font)
    cases += [c for c in options if not only or c["name"] in only or "options" in only]
    with open(os.path.join(a.outdir, "cases.json"), "w") as f:
        json.dump({"scale": a.scale, "cases": cases}, f, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
