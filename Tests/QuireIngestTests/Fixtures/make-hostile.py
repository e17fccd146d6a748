#!/usr/bin/env python3
"""Writes the hostile inputs for the Ingest tests into Fixtures/hostile/.

Every file is small (a few KiB, the largest about 20 KiB) and deterministic (fixed
timestamps, no randomness), so running this again gives byte-identical files.
The ZIP writer is hand-made on purpose: the point is to write archives that lie.

    python3 Tests/QuireIngestTests/Fixtures/make-hostile.py
"""
import hashlib
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "hostile")

DOS_TIME, DOS_DATE = 0, (2020 - 1980) << 9 | 1 << 5 | 1


class Entry:
    def __init__(self, name, data, method=8, flags=0, usize=None, csize=None, external=0,
                 made_by=20, zip64=False, crc=None):
        self.name = name.encode("utf-8") if isinstance(name, str) else name
        self.data = data if isinstance(data, bytes) else data.encode("utf-8")
        self.method = method
        self.flags = flags
        self.external = external
        self.made_by = made_by
        self.zip64 = zip64
        if method == 8:
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            self.payload = c.compress(self.data) + c.flush()
        else:
            self.payload = self.data
        self.crc = zlib.crc32(self.data) if crc is None else crc
        self.usize = len(self.data) if usize is None else usize
        self.csize = len(self.payload) if csize is None else csize


def build(entries, zip64_end=False, truncate=None):
    out = bytearray()
    central = bytearray()
    for e in entries:
        offset = len(out)
        extra = b""
        cs, us, off = e.csize, e.usize, offset
        if e.zip64:
            extra = struct.pack("<HHQQQ", 1, 24, e.usize, e.csize, offset)
            cs = us = off = 0xFFFFFFFF
        descriptor = e.flags & 8 != 0
        lcrc, lcs, lus = (0, 0, 0) if descriptor else (e.crc, cs, us)
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45 if e.zip64 else 20, e.flags, e.method,
                            DOS_TIME, DOS_DATE, lcrc, lcs & 0xFFFFFFFF, lus & 0xFFFFFFFF,
                            len(e.name), len(extra))
        out += local + e.name + extra + e.payload
        if descriptor:
            out += struct.pack("<IIII", 0x08074B50, e.crc, e.csize, e.usize)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, e.made_by, 45 if e.zip64 else 20,
                               e.flags, e.method, DOS_TIME, DOS_DATE, e.crc, cs & 0xFFFFFFFF,
                               us & 0xFFFFFFFF, len(e.name), len(extra), 0, 0, 0, e.external,
                               off & 0xFFFFFFFF) + e.name + extra
    cd_offset = len(out)
    out += central
    n = len(entries)
    if zip64_end:
        end64 = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n, len(central), cd_offset)
        out += struct.pack("<IIQI", 0x07064B50, 0, end64, 1)
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    else:
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(central), cd_offset, 0)
    data = bytes(out)
    return data[:truncate] if truncate else data


CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def opf(manifest_extra="", spine=None, title="Hostile Book", metadata_extra="", doctype=""):
    spine = spine if spine is not None else '<itemref idref="ch1"/>'
    return f"""<?xml version="1.0" encoding="UTF-8"?>{doctype}
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="uid">urn:uuid:12345678-1234-1234-1234-123456789abc</dc:identifier>
    <dc:title>{title}</dc:title>
    <dc:language>en</dc:language>{metadata_extra}
  </metadata>
  <manifest>
    <item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>{manifest_extra}
  </manifest>
  <spine>{spine}</spine>
</package>"""


def chapter(body="<p id='start'>It was a hostile night.</p>", head="", doctype=""):
    return f"""<?xml version="1.0" encoding="UTF-8"?>{doctype}
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title>{head}</head>
<body>{body}</body></html>"""


NAV = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Nav</title></head>
<body><nav epub:type="toc"><ol><li><a href="ch1.xhtml#start">Chapter One</a></li></ol></nav>
<nav epub:type="landmarks"><ol><li><a epub:type="bodymatter" href="ch1.xhtml">Start</a></li></ol></nav></body></html>"""


def book(*extra, mimetype="application/epub+zip", container=CONTAINER, package=None, ch1=None,
         skip=(), zip64_end=False, truncate=None):
    entries = [Entry("mimetype", mimetype, method=0)]
    if container is not None:
        entries.append(Entry("META-INF/container.xml", container))
    if package is not False:
        entries.append(Entry("OEBPS/content.opf", package or opf()))
    if "ch1" not in skip:
        entries.append(Entry("OEBPS/ch1.xhtml", ch1 or chapter()))
    entries.append(Entry("OEBPS/nav.xhtml", NAV))
    entries += extra
    return build(entries, zip64_end=zip64_end, truncate=truncate)


BILLION_LAUGHS = """
<!DOCTYPE package [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>"""
XXE = """
<!DOCTYPE package [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>"""


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    good = book()
    write("minimal.epub", good)
    write("zip64-valid.epub", build([Entry("mimetype", "application/epub+zip", method=0),
                                     Entry("META-INF/container.xml", CONTAINER, zip64=True),
                                     Entry("OEBPS/content.opf", opf(), zip64=True),
                                     Entry("OEBPS/ch1.xhtml", chapter(), zip64=True),
                                     Entry("OEBPS/nav.xhtml", NAV)], zip64_end=True))
    write("truncated.epub", good[: len(good) // 2])
    write("truncated-tail.epub", good[:-10])
    write("empty.epub", b"")
    write("not-a-zip.epub", b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR" + bytes((i * 37 + 11) % 256 for i in range(2048)))

    # Zip bombs: 20 MiB of zeros deflates to ~20 KiB (ratio ~1030).
    zeros = b"\0" * (20 << 20)
    bomb = chapter(body="<p>x</p>").encode() + zeros
    write("bomb-honest.epub", book(ch1=bomb.decode("latin-1")))
    lying = Entry("OEBPS/ch1.xhtml", bomb, usize=len(chapter()))
    write("bomb-lying-header.epub", book(lying, skip=("ch1",)))
    huge = Entry("OEBPS/ch1.xhtml", chapter(), usize=5 << 30, zip64=True)
    write("bomb-zip64-sizes.epub", book(huge, skip=("ch1",), zip64_end=True))

    # Names that try to leave the archive.
    write("traversal.epub", book(Entry("../../evil.xhtml", "evil"),
                                 Entry("OEBPS/../../../etc/evil2.txt", "evil"),
                                 Entry("/abs/absolute.txt", "absolute"),
                                 Entry("C:\\windows\\drive.txt", "drive"),
                                 Entry("OEBPS\\images\\back.txt", "backslash")))
    # Unix symlink entry (mode 0120777 in the high 16 bits, made by Unix = 3).
    link = Entry("OEBPS/ch1.xhtml", "/etc/passwd", method=0, external=(0o120777 << 16), made_by=(3 << 8) | 20)
    write("symlink.epub", book(link, skip=("ch1",)))
    enc = Entry("OEBPS/ch1.xhtml", chapter(), flags=1)
    write("encrypted-entry.epub", book(enc, skip=("ch1",)))
    write("duplicate-names.epub", book(Entry("OEBPS/ch1.xhtml", chapter(body="<p>second copy</p>"))))
    write("wrong-mimetype.epub", book(mimetype="application/zip"))
    write("missing-container.epub", book(container=None))
    write("missing-opf.epub", book(container=CONTAINER.replace("content.opf", "missing.opf")))
    write("spine-idref-missing.epub", book(package=opf(spine='<itemref idref="ghost"/><itemref idref="ch1"/>')))
    write("manifest-item-missing.epub",
          book(package=opf(manifest_extra='<item id="ch2" href="ch2.xhtml" media-type="application/xhtml+xml"/>',
                           spine='<itemref idref="ch1"/><itemref idref="ch2"/>')))
    write("spine-cycles.epub", book(package=opf(
        manifest_extra='<item id="self" href="content.opf" media-type="application/oebps-package+xml"/>'
                       '<item id="a" href="a.bin" media-type="application/x-a" fallback="b"/>'
                       '<item id="b" href="b.bin" media-type="application/x-b" fallback="a"/>'
                       '<item id="c" href="c.bin" media-type="application/x-c" fallback="c"/>',
        spine='<itemref idref="self"/><itemref idref="a"/><itemref idref="ch1"/><itemref idref="c"/>')))
    write("malformed-chapter.epub", book(ch1="<html><body><p>unclosed <b>bold <i>and</p> &bogus; </div>"))
    write("entities-chapter.epub", book(ch1=chapter(
        body="<p>&lol9;</p><p>&xxe;</p>",
        doctype=BILLION_LAUGHS.replace("package", "html").replace("]>", ' <!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>'))))
    write("billion-laughs-opf.epub", book(package=opf(title="&lol9;", doctype=BILLION_LAUGHS)))
    write("xxe-opf.epub", book(package=opf(title="Before &xxe; after", doctype=XXE)))
    deep = "<div>" * 100_000 + "deep" + "</div>" * 100_000
    write("deep-nesting.epub", book(ch1=chapter(body=deep)))
    deep_nav = NAV.replace("<ol><li>", "<ol><li>" + "<ol><li>" * 50_000, 1)
    write("deep-nav.epub", build([Entry("mimetype", "application/epub+zip", method=0),
                                  Entry("META-INF/container.xml", CONTAINER),
                                  Entry("OEBPS/content.opf", opf()),
                                  Entry("OEBPS/ch1.xhtml", chapter()),
                                  Entry("OEBPS/nav.xhtml", deep_nav)]))
    write("bad-crc.epub", book(Entry("OEBPS/ch1.xhtml", chapter(), crc=0xDEADBEEF), skip=("ch1",)))
    write("cp437-names.epub", book(Entry(b"OEBPS/caf\x82.txt", "cp437"),
                                   Entry("OEBPS/naïve.txt", "utf8", flags=0x800)))
    write("data-descriptor.epub", build([Entry("mimetype", "application/epub+zip", method=0),
                                         Entry("META-INF/container.xml", CONTAINER, flags=8),
                                         Entry("OEBPS/content.opf", opf(), flags=8),
                                         Entry("OEBPS/ch1.xhtml", chapter(), flags=8),
                                         Entry("OEBPS/nav.xhtml", NAV, flags=8)]))
    # encryption.xml: DRM (an algorithm we cannot undo) on chapters, obfuscation on fonts.
    def encryption(*pairs):
        body = "".join(f"""<EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
<EncryptionMethod Algorithm="{alg}"/><CipherData><CipherReference URI="{uri}"/></CipherData>
</EncryptedData>""" for alg, uri in pairs)
        return f"""<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">{body}</encryption>"""
    aes = "http://www.w3.org/2001/04/xmlenc#aes128-cbc"
    write("drm-all-spine.epub", book(Entry("META-INF/encryption.xml", encryption((aes, "OEBPS/ch1.xhtml")))))
    two = opf(manifest_extra='<item id="ch2" href="ch2.xhtml" media-type="application/xhtml+xml"/>',
              spine='<itemref idref="ch1"/><itemref idref="ch2"/>')
    write("drm-one-chapter.epub", book(Entry("OEBPS/ch2.xhtml", chapter(body="<p>locked</p>")),
                                       Entry("META-INF/encryption.xml", encryption((aes, "OEBPS/ch2.xhtml"))),
                                       package=two))
    font = b"OTTO" + bytes((i * 7 + 3) % 256 for i in range(1500))
    uid = "urn:uuid:12345678-1234-1234-1234-123456789abc"
    idpf_key = hashlib.sha1(uid.encode()).digest()
    adobe_key = bytes.fromhex(uid[len("urn:uuid:"):].replace("-", ""))
    idpf_font = bytes(b ^ idpf_key[i % 20] if i < 1040 else b for i, b in enumerate(font))
    adobe_font = bytes(b ^ adobe_key[i % 16] if i < 1024 else b for i, b in enumerate(font))
    fonts = opf(manifest_extra='<item id="f1" href="fonts/a.otf" media-type="font/otf"/>'
                               '<item id="f2" href="fonts/b.otf" media-type="font/otf"/>')
    write("obfuscated-fonts.epub", book(
        Entry("OEBPS/fonts/a.otf", idpf_font), Entry("OEBPS/fonts/b.otf", adobe_font),
        Entry("META-INF/encryption.xml", encryption(("http://www.idpf.org/2008/embedding", "OEBPS/fonts/a.otf"),
                                                    ("http://ns.adobe.com/pdf/enc#RC", "OEBPS/fonts/b.otf"))),
        package=fonts))
    write("invalid-utf8.txt", b"Caf\xe9 au lait\n\nsecond \xff\xfe paragraph \xc3\x28 here\n")


if __name__ == "__main__":
    main()
