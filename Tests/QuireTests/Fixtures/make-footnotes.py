#!/usr/bin/env python3
"""Writes Fixtures/footnotes.epub, the footnote fixture of issue #10.

Chapter 1 marks its notes the EPUB 3 way (epub:type="noteref" links, <aside
epub:type="footnote">, a plain <aside> that a noteref points at, a long note that must
continue on the next page, and a sidebar <aside> nobody refers to, which stays in the
text). Chapter 2 is XHTML 1.1 without the epub namespace, marked with DPUB-ARIA roles
(role="doc-noteref" / "doc-footnote" / "doc-endnote"), as EPUB 2 books that mark notes do.
Deterministic (fixed timestamps): running it again gives the same bytes.

    python3 Tests/QuireTests/Fixtures/make-footnotes.py
"""
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATE = (2020, 1, 1, 0, 0, 0)

LOREM = ("The whale, as he rose, showed his broad back to the sun, and the men in the boats "
         "leaned on their oars to watch him go; nobody spoke, and the sea was quiet again. ")

CH1 = """<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en">
<head><title>One</title></head>
<body>
<h1>Chapter One</h1>
<p>First paragraph with a reference.<a epub:type="noteref" href="#fn1">1</a> {l}</p>
<aside epub:type="footnote" id="fn1"><p>1. A short footnote at the foot of page one.</p></aside>
<p>{l}{l}</p>
<aside class="sidebar"><p>A sidebar aside that nothing refers to stays in the text.</p></aside>
<p>Second reference, to a plain aside.<a epub:type="noteref" href="#fn2">2</a> {l}</p>
<aside id="fn2"><p>2. A plain aside that a noteref points at is a note too.</p></aside>
<p>{l}{l}{l}</p>
<p>Third reference, to a long note.<a epub:type="noteref" href="#fn3">3</a> {l}</p>
<aside epub:type="footnote" id="fn3"><p>3. A long note. {l}{l}{l}{l}{l}{l}{l}{l}{l}{l}</p></aside>
<p>{l}{l}{l}{l}</p>
</body></html>
""".replace("{l}", LOREM)

CH2 = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">
<head><title>Two</title></head>
<body>
<h2>Chapter Two</h2>
<p>A reference marked with a role.<a role="doc-noteref" href="#n1">*</a> {l}</p>
<p>{l}{l}</p>
<div role="doc-footnote" id="n1"><p>* A footnote marked with role="doc-footnote".</p></div>
<p>An endnote reference.<a role="doc-noteref" href="#e1">[e1]</a> {l}</p>
<div role="doc-endnote" id="e1"><p>[e1] An endnote marked with role="doc-endnote".</p></div>
</body></html>
""".replace("{l}", LOREM)

OPF = """<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">quire-footnotes-fixture</dc:identifier>
<dc:title>Footnotes</dc:title><dc:language>en</dc:language>
<meta property="dcterms:modified">2020-01-01T00:00:00Z</meta>
</metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/>
<item id="ch2" href="ch2.xhtml" media-type="application/xhtml+xml"/>
</manifest>
<spine><itemref idref="ch1"/><itemref idref="ch2"/></spine>
</package>
"""

NAV = """<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>Contents</title></head>
<body><nav epub:type="toc"><ol>
<li><a href="ch1.xhtml">Chapter One</a></li><li><a href="ch2.xhtml">Chapter Two</a></li>
</ol></nav></body></html>
"""

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""


def main():
    path = os.path.join(HERE, "footnotes.epub")
    with zipfile.ZipFile(path, "w") as z:
        def add(name, text, method=zipfile.ZIP_DEFLATED):
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = method
            z.writestr(info, text.encode("utf-8"))
        add("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
        add("META-INF/container.xml", CONTAINER)
        add("OPS/package.opf", OPF)
        add("OPS/nav.xhtml", NAV)
        add("OPS/ch1.xhtml", CH1)
        add("OPS/ch2.xhtml", CH2)


if __name__ == "__main__":
    main()
