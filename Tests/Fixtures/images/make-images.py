#!/usr/bin/env python3
"""Makes the image-format fixtures of Tests/QuireRasterTests/ImageFormatTests.swift.

For every format and variant Quire decodes, writes `<name>.<ext>` and `<name>.expected.png`
(straight RGBA, what a correct decoder shows), and `cases.json` listing each with the largest
per-channel difference allowed: 0 for lossless formats, whose expectation is the exact source
pixels, and a small stated tolerance for lossy ones, whose expectation is a reference decoder's
output (Pillow for JPEG/WebP, avifdec for AVIF, djxl for JPEG XL). Also writes hostile files
(`giant-*`: headers claiming more pixels than ImageLimits allows).

Needs python3-pil, cwebp/img2webp/dwebp (webp), avifenc/avifdec (libavif-bin), cjxl/djxl
(libjxl-tools); scripts/install-deps.sh installs them. Run from anywhere; output is
deterministic for the same tool versions, and the generated files are committed.
"""
import io, json, os, struct, subprocess, tempfile, zlib
from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = []
W, H = 7, 5


def source(alpha=True):
    """A 7x5 pattern: distinct colours per quadrant (orientation shows), a gradient, and
    transparent / half-transparent pixels when `alpha`."""
    im = Image.new("RGBA", (W, H))
    for y in range(H):
        for x in range(W):
            r = 255 if x < W // 2 else 20
            g = 230 if y < H // 2 else 40
            b = (x * 36 + y * 11) % 256
            a = 255
            if alpha and x == 0 and y == 0:
                a = 0
            elif alpha and x == W - 1:
                a = 128
            im.putpixel((x, y), (r, g, b, a))
    return im


def straight(im):
    """Fully transparent pixels compare as (0,0,0,0): their colour is meaningless."""
    im = im.convert("RGBA")
    im.putdata([(0, 0, 0, 0) if p[3] == 0 else p for p in im.getdata()])
    return im


def case(name, ext, data, expected, tolerance=0):
    with open(os.path.join(HERE, f"{name}.{ext}"), "wb") as f:
        f.write(data)
    straight(expected).save(os.path.join(HERE, f"{name}.expected.png"))
    CASES.append({"file": f"{name}.{ext}", "expected": f"{name}.expected.png",
                  "tolerance": tolerance})


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def tool(im, ext, *cmd, out_ext=None):
    """Saves `im` as PNG, runs `cmd IN OUT` (or `cmd IN -o OUT` when cmd ends in -o), returns
    OUT's bytes."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in.png")
        out = os.path.join(d, "out." + (out_ext or ext))
        im.save(src)
        if cmd[-1] == "-o":
            run(*cmd[:-1], src, "-o", out)
        else:
            run(*cmd, src, out)
        return open(out, "rb").read()


def decoded_by(cmd, data, ext):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in." + ext)
        out = os.path.join(d, "out.png")
        open(src, "wb").write(data)
        run(*cmd, src, out)
        return Image.open(out).convert("RGBA")


# PNG, written by hand: Pillow writes neither Adam7 nor 16-bit colour.
def png(width, height, color_type, depth, rows, interlace=False, plte=None, trns=None):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    def pack(row):  # row: list of sample tuples
        if depth == 16:
            return b"".join(struct.pack(">" + "H" * channels, *p) for p in row)
        if depth == 8:
            return bytes(v for p in row for v in p)
        bits = "".join(format(p[0], f"0{depth}b") for p in row)
        bits += "0" * (-len(bits) % 8)
        return bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    raw = b""
    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        for x0, y0, dx, dy in passes:
            for y in range(y0, height, dy):
                sub = rows[y][x0::dx]
                if sub:
                    raw += b"\0" + pack(sub)
    else:
        for row in rows:
            raw += b"\0" + pack(row)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlace else 0))
    if plte:
        out += chunk(b"PLTE", plte)
    if trns is not None:
        out += chunk(b"tRNS", trns)
    return out + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def png_cases():
    src = source()
    px = [[src.getpixel((x, y)) for x in range(W)] for y in range(H)]
    case("png-rgba8", "png", png(W, H, 6, 8, px), src)
    case("png-rgba8-interlaced", "png", png(W, H, 6, 8, px, interlace=True), src)
    wide = [[tuple(v * 257 for v in p) for p in row] for row in px]
    case("png-rgba16", "png", png(W, H, 6, 16, wide), src)
    case("png-rgba16-interlaced", "png", png(W, H, 6, 16, wide, interlace=True), src)
    ga = [[(p[1], p[3]) for p in row] for row in px]
    case("png-gray-alpha", "png", png(W, H, 4, 8, ga), Image.merge("RGBA", [src.getchannel("G")] * 3 + [src.getchannel("A")]))
    palette = [(255, 0, 0), (0, 128, 255), (20, 200, 40), (250, 250, 0)]
    idx = [[((x + y) % 4,) for x in range(W)] for y in range(H)]
    plte = bytes(v for c in palette for v in c)
    exp = Image.new("RGBA", (W, H))
    exp_t = Image.new("RGBA", (W, H))
    alphas = [0, 128, 255, 255]
    for y in range(H):
        for x in range(W):
            c = palette[idx[y][x][0]]
            exp.putpixel((x, y), c + (255,))
            exp_t.putpixel((x, y), c + (alphas[idx[y][x][0]],))
    case("png-palette4", "png", png(W, H, 3, 4, idx, plte=plte), exp)
    case("png-palette-trns", "png", png(W, H, 3, 8, idx, plte=plte, trns=bytes(alphas[:2])), exp_t)
    case("png-palette2-interlaced", "png", png(W, H, 3, 2, idx, plte=plte, interlace=True), exp)
    gray16 = [[(p[1] * 257,) for p in row] for row in px]
    case("png-gray16", "png", png(W, H, 0, 16, gray16), Image.merge("RGBA", [src.getchannel("G")] * 3 + [Image.new("L", (W, H), 255)]))


def jpeg_cases():
    big = Image.new("RGB", (32, 24))  # quadrants large enough to survive compression
    for y in range(24):
        for x in range(32):
            big.putpixel((x, y), (250 if x < 16 else 10, 240 if y < 12 else 30, 128))
    def ref(data):
        return ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGBA")
    for n in range(1, 9):
        buf = io.BytesIO()
        exif = Image.Exif()
        exif[0x0112] = n
        big.save(buf, "JPEG", quality=95, exif=exif.tobytes())
        case(f"jpeg-exif-{n}", "jpg", buf.getvalue(), ref(buf.getvalue()), 2)
    for name, im, kw in [("jpeg-progressive", big, {"progressive": True}),
                         ("jpeg-gray", big.convert("L"), {}),
                         ("jpeg-cmyk", big.convert("CMYK"), {})]:
        buf = io.BytesIO()
        im.save(buf, "JPEG", quality=95, **kw)
        case(name, "jpg", buf.getvalue(), Image.open(io.BytesIO(buf.getvalue())).convert("RGB").convert("RGBA"), 2)
    ycck = ycck_jpeg(big)
    case("jpeg-ycck", "jpg", ycck, Image.open(io.BytesIO(ycck)).convert("RGB").convert("RGBA"), 2)


def ycck_jpeg(im):
    """A YCCK JPEG: TurboJPEG compresses CMYK pixels as YCCK (with the Adobe marker); Pillow
    cannot write one. The CMYK samples are stored inverted, as Pillow's own CMYK JPEGs are."""
    import ctypes, ctypes.util
    tj = ctypes.CDLL(ctypes.util.find_library("turbojpeg") or "libturbojpeg.so.0")
    tj.tjInitCompress.restype = ctypes.c_void_p
    handle = ctypes.c_void_p(tj.tjInitCompress())
    cmyk = bytes(255 - v for v in im.convert("CMYK").tobytes())
    out = ctypes.POINTER(ctypes.c_ubyte)()
    size = ctypes.c_ulong(0)
    rc = tj.tjCompress2(handle, cmyk, im.width, 0, im.height, 11, ctypes.byref(out),
                        ctypes.byref(size), 0, 95, 0)  # TJPF_CMYK, TJSAMP_444
    assert rc == 0
    data = ctypes.string_at(out, size.value)
    tj.tjFree(out)
    tj.tjDestroy(handle)
    return data


def gif_cases():
    src = source(alpha=False).convert("RGB")
    pal = src.quantize(colors=16, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, "GIF", transparency=pal.getpixel((0, 0)))
    exp = pal.convert("RGBA")
    t = pal.getpixel((0, 0))
    exp.putdata([(0, 0, 0, 0) if i == t else p for i, p in zip(pal.getdata(), exp.getdata())])
    case("gif-transparent", "gif", buf.getvalue(), exp)
    buf = io.BytesIO()
    pal.save(buf, "GIF", interlace=True)
    case("gif-interlaced", "gif", buf.getvalue(), pal.convert("RGBA"))
    second = ImageOps.invert(src).quantize(colors=16, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, "GIF", save_all=True, append_images=[second], duration=100, loop=0)
    case("gif-animated", "gif", buf.getvalue(), pal.convert("RGBA"))


def webp_cases():
    src = source()
    case("webp-lossless-alpha", "webp", tool(src, "webp", "cwebp", "-quiet", "-lossless", "-exact", "-o"), src)
    lossy = tool(src, "webp", "cwebp", "-quiet", "-q", "90", "-alpha_q", "100", "-o")
    case("webp-lossy-alpha", "webp", lossy, Image.open(io.BytesIO(lossy)).convert("RGBA"), 2)
    with tempfile.TemporaryDirectory() as d:
        a, b, out = (os.path.join(d, n) for n in ("a.png", "b.png", "out.webp"))
        src.save(a)
        ImageOps.invert(src.convert("RGB")).convert("RGBA").save(b)
        run("img2webp", "-lossless", a, b, "-o", out)
        case("webp-animated", "webp", open(out, "rb").read(), src)


def avif_cases():
    src = source(alpha=False).resize((28, 20), Image.NEAREST)
    data = tool(src, "avif", "avifenc", "-s", "10", "--min", "0", "--max", "0", "-y", "444")
    ref = decoded_by(["avifdec"], data, "avif")
    case("avif-444", "avif", data, ref, 3)
    rot = tool(src, "avif", "avifenc", "-s", "10", "--min", "0", "--max", "0", "-y", "444", "--irot", "1")
    case("avif-irot1", "avif", rot, ref.transpose(Image.Transpose.ROTATE_90), 3)
    mir = tool(src, "avif", "avifenc", "-s", "10", "--min", "0", "--max", "0", "-y", "444", "--imir", "1")
    case("avif-imir1", "avif", mir, ref.transpose(Image.Transpose.FLIP_LEFT_RIGHT), 3)
    # clap (clean aperture) crops before irot and imir (MIAF 7.3.6.7); avifdec writes the whole
    # coded image, so the expectation is its output cropped, then turned and mirrored.
    crop = ("--crop", "5,3,16,12")
    box = (5, 3, 21, 15)
    clap = tool(src, "avif", "avifenc", "-s", "10", "--min", "0", "--max", "0", "-y", "444", *crop)
    case("avif-clap", "avif", clap, decoded_by(["avifdec"], clap, "avif").crop(box), 3)
    turned = tool(src, "avif", "avifenc", "-s", "10", "--min", "0", "--max", "0", "-y", "444", *crop,
                  "--irot", "1", "--imir", "1")
    expected = decoded_by(["avifdec"], turned, "avif").crop(box)
    expected = expected.transpose(Image.Transpose.ROTATE_90).transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    case("avif-clap-irot1-imir1", "avif", turned, expected, 3)


def jxl_cases():
    src = source()
    case("jxl-lossless-alpha", "jxl", tool(src, "jxl", "cjxl", "-q", "100", "-e", "3", "--quiet"), src)
    opaque = source(alpha=False).resize((28, 20), Image.NEAREST)
    lossy = tool(opaque, "jxl", "cjxl", "-d", "1", "-e", "3", "--quiet")
    case("jxl-lossy", "jxl", lossy, decoded_by(["djxl", "--quiet"], lossy, "jxl"), 3)


# BMP, written by hand: Pillow writes neither RLE nor bit fields nor OS/2 headers.
def bmp(width, height, bpp, pixel_bytes, palette=b"", compression=0, masks=None, core=False, top_down=False):
    if core:
        dib = struct.pack("<IHHHH", 12, width, height, 1, bpp)
    else:
        dib = struct.pack("<IiiHHIIiiII", 40 if masks is None or len(masks) == 3 else 56, width,
                          -height if top_down else height, 1, bpp, compression, len(pixel_bytes),
                          2835, 2835, len(palette) // 4, 0)
        if masks is not None:
            dib += b"".join(struct.pack("<I", m) for m in masks)
    offset = 14 + len(dib) + len(palette)
    head = b"BM" + struct.pack("<IHHI", offset + len(pixel_bytes), 0, 0, offset)
    return head + dib + palette + pixel_bytes


def bmp_cases():
    src = source()
    opaque = source(alpha=False)
    px = lambda im, x, y: im.getpixel((x, y))
    def rows(bpp, fn, bottom_up=True):
        order = range(H - 1, -1, -1) if bottom_up else range(H)
        out = b""
        for y in order:
            r = fn(y)
            out += r + b"\0" * (-len(r) % 4)
        return out
    case("bmp-24", "bmp", bmp(W, H, 24, rows(24, lambda y: b"".join(bytes(px(opaque, x, y)[2::-1]) for x in range(W)))), opaque)
    case("bmp-24-topdown", "bmp", bmp(W, H, 24, rows(24, lambda y: b"".join(bytes(px(opaque, x, y)[2::-1]) for x in range(W)), False), top_down=True), opaque)
    core_rows = rows(24, lambda y: b"".join(bytes(px(opaque, x, y)[2::-1]) for x in range(W)))
    case("bmp-os2-24", "bmp", bmp(W, H, 24, core_rows, core=True), opaque)
    bgra = rows(32, lambda y: b"".join(bytes(px(src, x, y)[2::-1]) + bytes([px(src, x, y)[3]]) for x in range(W)))
    case("bmp-32-bitfields-alpha", "bmp", bmp(W, H, 32, bgra, compression=3, masks=[0xFF0000, 0xFF00, 0xFF, 0xFF000000]), src)
    case("bmp-32-rgb-alpha", "bmp", bmp(W, H, 32, bgra), src)
    bgrx = rows(32, lambda y: b"".join(bytes(px(opaque, x, y)[2::-1]) + b"\0" for x in range(W)))
    case("bmp-32-rgb-padding", "bmp", bmp(W, H, 32, bgrx), opaque)
    # 16-bit: 5-6-5 bit fields, and the default 5-5-5; expectation = the scaled-back fields.
    def s(v, bits):
        m = (1 << bits) - 1
        return (v * m + 127) // 255, m
    def up(q, m):
        return (q * 255 + m // 2) // m
    exp565, exp555 = Image.new("RGBA", (W, H)), Image.new("RGBA", (W, H))
    for y in range(H):
        for x in range(W):
            r, g, b, _ = px(opaque, x, y)
            (r5, m5), (g6, m6), (b5, _), (g5, _) = s(r, 5), s(g, 6), s(b, 5), s(g, 5)
            exp565.putpixel((x, y), (up(r5, m5), up(g6, m6), up(b5, m5), 255))
            exp555.putpixel((x, y), (up(r5, m5), up(g5, m5), up(b5, m5), 255))
    def p565(y):
        return b"".join(struct.pack("<H", s(px(opaque, x, y)[0], 5)[0] << 11 | s(px(opaque, x, y)[1], 6)[0] << 5 | s(px(opaque, x, y)[2], 5)[0]) for x in range(W))
    def p555(y):
        return b"".join(struct.pack("<H", s(px(opaque, x, y)[0], 5)[0] << 10 | s(px(opaque, x, y)[1], 5)[0] << 5 | s(px(opaque, x, y)[2], 5)[0]) for x in range(W))
    case("bmp-16-565", "bmp", bmp(W, H, 16, rows(16, p565), compression=3, masks=[0xF800, 0x07E0, 0x001F]), exp565)
    case("bmp-16-555", "bmp", bmp(W, H, 16, rows(16, p555)), exp555)
    # Palette images: 1, 4 and 8 bits, and RLE8/RLE4 of the same indexes.
    colors = [(0, 0, 0), (255, 255, 255), (200, 30, 30), (30, 200, 30), (30, 30, 200), (250, 250, 0)]
    for bpp in (1, 4, 8):
        n = 2 if bpp == 1 else 6
        idx = lambda x, y: (x * 3 + y) % n
        pal = b"".join(bytes([c[2], c[1], c[0], 0]) for c in colors[:n])
        exp = Image.new("RGBA", (W, H))
        for y in range(H):
            for x in range(W):
                exp.putpixel((x, y), colors[idx(x, y)] + (255,))
        def packed(y):
            bits = "".join(format(idx(x, y), f"0{bpp}b") for x in range(W))
            bits += "0" * (-len(bits) % 8)
            return bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
        case(f"bmp-{bpp}", "bmp", bmp(W, H, bpp, rows(bpp, packed), palette=pal), exp)
        if bpp == 8:
            rle = b""
            for y in range(H - 1, -1, -1):
                rle += bytes([0, 3]) + bytes(idx(x, y) for x in range(3)) + b"\0"  # absolute, padded
                rle += bytes([W - 3, idx(3, y)]) if len({idx(x, y) for x in range(3, W)}) == 1 else b"".join(bytes([1, idx(x, y)]) for x in range(3, W))
                rle += b"\0\0"
            case("bmp-rle8", "bmp", bmp(W, H, 8, rle + b"\0\1", palette=pal, compression=1), exp)
        if bpp == 4:
            rle = b""
            for y in range(H - 1, -1, -1):
                rle += bytes([0, 4, idx(0, y) << 4 | idx(1, y), idx(2, y) << 4 | idx(3, y)])
                for x in range(4, W):
                    rle += bytes([1, idx(x, y) << 4])
                rle += b"\0\0"
            case("bmp-rle4", "bmp", bmp(W, H, 4, rle + b"\0\1", palette=pal, compression=2), exp)


def giant_cases():
    """Headers claiming 100000 x 100000 (or 65535 x 65535) pixels over tiny bodies."""
    hostile = {
        "giant.png": png(100000, 100000, 6, 8, [[(0, 0, 0, 0)]]),
        "giant.gif": b"GIF89a" + struct.pack("<HH", 65535, 65535) + b"\0\0\0;",
        "giant.bmp": bmp(100000, 100000, 24, b"\0" * 16),
        "giant.jpg": b"\xff\xd8\xff\xc0\x00\x11\x08\xea\x60\xea\x60\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01"
        + b"\xff\xda\x00\x0c\x03\x01\x00\x02\x11\x03\x11\x00\x3f\x00\xff\xd9",
        "giant.webp": b"RIFF" + struct.pack("<I", 30) + b"WEBPVP8X" + struct.pack("<I", 10) + b"\x10\0\0\0" + (99999).to_bytes(3, "little") * 2,
    }
    with tempfile.TemporaryDirectory() as d:
        wide = os.path.join(d, "wide.png")
        Image.new("RGB", (17000, 1), (10, 20, 30)).save(wide)
        run("cjxl", "-d", "0", "-e", "1", "--quiet", wide, os.path.join(d, "wide.jxl"))
        hostile["giant.jxl"] = open(os.path.join(d, "wide.jxl"), "rb").read()
    small = tool(source(alpha=False), "avif", "avifenc", "-s", "10")
    at = small.index(b"ispe") + 8
    hostile["giant.avif"] = small[:at] + struct.pack(">II", 100000, 100000) + small[at + 8:]
    for name, data in hostile.items():
        open(os.path.join(HERE, name), "wb").write(data)


if __name__ == "__main__":
    png_cases(); jpeg_cases(); gif_cases(); webp_cases(); avif_cases(); jxl_cases(); bmp_cases()
    giant_cases()
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(CASES, f, indent=1)
        f.write("\n")
    print(len(CASES), "cases")
