#!/usr/bin/env python3
"""Writes a long EPUB for the book-length memory measurement of issue #9.

A deterministic pseudo-Latin text (seeded word list, sentences of 6-18 words, paragraphs of
3-8 sentences) split into CHAPTERS spine documents of about WORDS words each, with a nav
document: by default 2,000 chapters of 610 words, about 6,600 pages at 600x800 and 16 px.

With --vocabulary N the words are drawn from N fixed words (a real book's vocabulary is a
few tens of thousands); by default every word is new syllables (about 350,000 distinct
words: the worst case for per-word caches).

usage: make-long-book.py OUT.epub [--chapters N] [--words N] [--vocabulary N]
"""
import argparse
import random
import zipfile

SYLLABLES = "lo rem ip sum do lor sit a met con sec te tur ad i pi scing e lit sed eius mod".split()


VOCABULARY = []


def words(rng, n):
    if VOCABULARY:
        return [rng.choice(VOCABULARY) for _ in range(n)]
    out = []
    for _ in range(n):
        out.append("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))))
    return out


def chapter(rng, index, count):
    body = []
    left = count
    while left > 0:
        sentences = []
        for _ in range(rng.randint(3, 8)):
            w = words(rng, rng.randint(6, 18))
            left -= len(w)
            sentences.append(" ".join(w).capitalize() + ".")
        body.append("<p>" + " ".join(sentences) + "</p>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter %d</title></head>'
        "<body><h2>Chapter %d</h2>\n%s\n</body></html>\n" % (index, index, "\n".join(body))
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--chapters", type=int, default=2000)
    ap.add_argument("--words", type=int, default=610)
    ap.add_argument("--vocabulary", type=int, default=0)
    a = ap.parse_args()
    rng = random.Random(9)
    if a.vocabulary:
        seen = set()
        while len(seen) < a.vocabulary:
            seen.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))))
        VOCABULARY.extend(sorted(seen))
    with zipfile.ZipFile(a.out, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        z.writestr(
            "META-INF/container.xml",
            '<?xml version="1.0"?><container version="1.0" '
            'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
            '<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
            "</rootfiles></container>",
        )
        items, spine, nav = [], [], []
        for i in range(1, a.chapters + 1):
            name = "c%04d.xhtml" % i
            z.writestr("OEBPS/" + name, chapter(rng, i, a.words), zipfile.ZIP_DEFLATED)
            items.append('<item id="c%d" href="%s" media-type="application/xhtml+xml"/>' % (i, name))
            spine.append('<itemref idref="c%d"/>' % i)
            nav.append('<li><a href="%s">Chapter %d</a></li>' % (name, i))
        z.writestr(
            "OEBPS/nav.xhtml",
            '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" '
            'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body>'
            '<nav epub:type="toc"><ol>%s</ol></nav></body></html>' % "".join(nav),
            zipfile.ZIP_DEFLATED,
        )
        z.writestr(
            "OEBPS/content.opf",
            '<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" '
            'version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
            '<dc:identifier id="id">quire-long-book</dc:identifier><dc:title>A Long Book</dc:title>'
            "<dc:language>la</dc:language>"
            '<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata><manifest>'
            '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
            "%s</manifest><spine>%s</spine></package>" % ("".join(items), "".join(spine)),
            zipfile.ZIP_DEFLATED,
        )


if __name__ == "__main__":
    main()
