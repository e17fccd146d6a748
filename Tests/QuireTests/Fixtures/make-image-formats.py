#!/usr/bin/env python3
"""Writes Fixtures/image-formats.epub: one <img> per raster format Quire decodes (taken from
Tests/Fixtures/images, made by make-images.py there), two data: URL images (base64 PNG,
percent-encoded BMP), a CSS background from a data: URL, and an image whose manifest item is
a TIFF (which Quire cannot decode) with a fallback chain TIFF → unknown type → PNG.
Deterministic (fixed timestamps).

    python3 Tests/QuireTests/Fixtures/make-image-formats.py
"""
import base64, os, urllib.parse, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "..", "..", "Fixtures", "images")
DATE = (2020, 1, 1, 0, 0, 0)
FILES = {"png-palette-trns.png": "image/png", "jpeg-exif-6.jpg": "image/jpeg",
         "jpeg-cmyk.jpg": "image/jpeg", "gif-transparent.gif": "image/gif",
         "webp-lossy-alpha.webp": "image/webp", "webp-animated.webp": "image/webp",
         "avif-444.avif": "image/avif", "jxl-lossless-alpha.jxl": "image/jxl",
         "bmp-rle8.bmp": "image/bmp"}


def read(name):
    return open(os.path.join(IMAGES, name), "rb").read()


def main():
    png64 = base64.b64encode(read("png-rgba8.png")).decode()
    bmp_pct = urllib.parse.quote(read("bmp-4.bmp"), safe="")
    imgs = "\n".join(f'<p><img src="images/{f}" alt="{f}" width="70" height="50"/></p>' for f in FILES)
    chapter = f"""<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">
<head><title>Images</title>
<style>div.bg {{ height: 20px; background-image: url("data:image/png;base64,{png64}"); }}</style>
</head>
<body>
<h1>Every format</h1>
{imgs}
<p><img src="data:image/png;base64,{png64[:40]}
 {png64[40:]}" alt="base64 data URL" width="70" height="50"/></p>
<p><img src="data:image/bmp,{bmp_pct}" alt="percent data URL" width="70" height="50"/></p>
<p><img src="images/scan.tif" alt="fallback" width="70" height="50"/></p>
<div class="bg"></div>
</body></html>
"""
    items = "\n".join(f'<item id="i{k}" href="images/{f}" media-type="{t}"/>' for k, (f, t) in enumerate(FILES.items()))
    opf = f"""<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">quire-image-formats</dc:identifier>
<dc:title>Image formats</dc:title><dc:language>en</dc:language>
<meta property="dcterms:modified">2020-01-01T00:00:00Z</meta>
</metadata>
<manifest>
<item id="ch" href="ch.xhtml" media-type="application/xhtml+xml"/>
{items}
<item id="tif" href="images/scan.tif" media-type="image/tiff" fallback="odd"/>
<item id="odd" href="images/scan.xyz" media-type="image/x-unknown" fallback="png"/>
<item id="png" href="images/scan.png" media-type="image/png" fallback="tif"/>
</manifest>
<spine><itemref idref="ch"/></spine>
</package>
"""
    container = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""
    with zipfile.ZipFile(os.path.join(HERE, "image-formats.epub"), "w") as z:
        def add(name, data, method=zipfile.ZIP_DEFLATED):
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = method
            z.writestr(info, data if isinstance(data, bytes) else data.encode("utf-8"))
        add("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
        add("META-INF/container.xml", container)
        add("OPS/package.opf", opf)
        add("OPS/ch.xhtml", chapter)
        for f in FILES:
            add(f"OPS/images/{f}", read(f))
        add("OPS/images/scan.tif", b"II*\0 not really a tiff")
        add("OPS/images/scan.xyz", b"unknown bytes")
        add("OPS/images/scan.png", read("png-gray-alpha.png"))


if __name__ == "__main__":
    main()
