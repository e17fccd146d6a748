#!/usr/bin/env python3
"""Writes ltr.epub and rtl.epub, the two small books of the flipbook tests (issue #14).

Each has four short chapters, so that at 300x400 px the book is about six pages: enough for
single-page and spread turns both ways. rtl.epub is Arabic (dc:language ar) with
page-progression-direction="rtl" on its spine, so the flipbook turns the other way.
Deterministic (fixed timestamps): running it again gives the same bytes.

    python3 Tests/QuireTests/Fixtures/flipbook/make-flipbook-books.py
"""
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATE = (2020, 1, 1, 0, 0, 0)

BOOKS = {
    "ltr": {
        "title": "A Flipbook Sample", "lang": "en", "dir": "ltr",
        "heading": "Chapter {n}",
        "text": ("Chapter {n} begins here. The whale rose and showed his broad back to the sun, "
                 "and the men in the boats leaned on their oars to watch him go. "),
    },
    "rtl": {
        "title": "كتاب تجريبي", "lang": "ar", "dir": "rtl",
        "heading": "الفصل {n}",
        "text": ("يبدأ الفصل {n} هنا. هذا نص تجريبي لكتاب يقرأ من اليمين إلى اليسار، "
                 "وتقلب صفحاته في الاتجاه الآخر. "),
    },
}

CHAPTER = """<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="{lang}" lang="{lang}" dir="{dir}">
<head><title>{heading}</title></head>
<body>
<h1>{heading}</h1>
<p>{text}</p>
<p>{text}</p>
</body></html>
"""

OPF = """<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">quire-flipbook-{name}</dc:identifier>
<dc:title>{title}</dc:title><dc:language>{lang}</dc:language>
<meta property="dcterms:modified">2020-01-01T00:00:00Z</meta>
</metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
{items}
</manifest>
<spine page-progression-direction="{dir}">{refs}</spine>
</package>
"""

NAV = """<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>Contents</title></head>
<body><nav epub:type="toc"><ol>{links}</ol></nav></body></html>
"""

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""


def write(name, b):
    chapters = range(1, 5)
    items = "\n".join(f'<item id="c{n}" href="c{n}.xhtml" media-type="application/xhtml+xml"/>'
                      for n in chapters)
    refs = "".join(f'<itemref idref="c{n}"/>' for n in chapters)
    links = "".join(f'<li><a href="c{n}.xhtml">{b["heading"].format(n=n)}</a></li>'
                    for n in chapters)
    with zipfile.ZipFile(os.path.join(HERE, f"{name}.epub"), "w") as z:
        def add(path, text, method=zipfile.ZIP_DEFLATED):
            info = zipfile.ZipInfo(path, DATE)
            info.compress_type = method
            z.writestr(info, text.encode("utf-8"))
        add("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
        add("META-INF/container.xml", CONTAINER)
        add("OPS/package.opf", OPF.format(name=name, title=b["title"], lang=b["lang"],
                                          dir=b["dir"], items=items, refs=refs))
        add("OPS/nav.xhtml", NAV.format(links=links))
        for n in chapters:
            heading = b["heading"].format(n=n)
            add(f"OPS/c{n}.xhtml", CHAPTER.format(lang=b["lang"], dir=b["dir"], heading=heading,
                                                  text=b["text"].format(n=n) * 2))


def main():
    for name, b in BOOKS.items():
        write(name, b)


if __name__ == "__main__":
    main()
