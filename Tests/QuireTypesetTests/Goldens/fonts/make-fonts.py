#!/usr/bin/env python3
"""Makes the font-format fixtures from the vendored OFL fonts (pip install fonttools brotli).

serif.ttf / serif.woff / serif.woff2: Noto Serif Regular cut to printable ASCII, as sfnt,
WOFF (zlib) and WOFF2 (Brotli + glyf/loca transform). bold.ttf: Noto Serif Bold, same cut.
mono.ttf: Noto Sans Mono, same cut. trio.ttc: serif, bold and mono as one collection.
Hostile files: huge.ttc (a collection header claiming 2^31-1 faces), truncated.woff (a WOFF
cut in the middle of its tables), garbage.woff2 (a WOFF2 header over random bytes).
Run from this folder: python3 make-fonts.py
"""
import os
import random
import struct

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.ttLib.ttCollection import TTCollection

FONTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../fonts")
ASCII = list(range(0x20, 0x7F))


def cut(name):
    font = TTFont(os.path.join(FONTS, name))
    options = subset.Options()
    options.name_IDs = ["*"]
    options.layout_features = ["*"]
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=ASCII)
    sub.subset(font)
    return font


def main():
    serif = cut("NotoSerif-Regular.ttf")
    serif.save("serif.ttf")
    for flavor in ("woff", "woff2"):
        f = TTFont("serif.ttf")
        f.flavor = flavor
        f.save("serif." + flavor)
    bold = cut("NotoSerif-Bold.ttf")
    bold.save("bold.ttf")
    mono = cut("NotoSansMono-Regular.ttf")
    mono.save("mono.ttf")
    ttc = TTCollection()
    ttc.fonts = [TTFont("serif.ttf"), TTFont("bold.ttf"), TTFont("mono.ttf")]
    ttc.save("trio.ttc")
    with open("huge.ttc", "wb") as out:
        out.write(b"ttcf" + struct.pack(">HHI", 1, 0, 0x7FFFFFFF) + struct.pack(">I", 16) * 4)
    with open("serif.woff", "rb") as src:
        woff = src.read()
    with open("truncated.woff", "wb") as out:
        out.write(woff[: len(woff) // 2])
    rng = random.Random(11)
    body = bytes(rng.randrange(256) for _ in range(2000))
    header = b"wOF2" + struct.pack(">IIHHIHHIIIII", 0x00010000, 48 + len(body), 3, 0,
                                   100000, 1, 0, 0, 0, 0, 0, 0)
    with open("garbage.woff2", "wb") as out:
        out.write(header + body)


if __name__ == "__main__":
    main()
