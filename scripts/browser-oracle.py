#!/usr/bin/env python3
"""Browser oracle: lay out the same chapters in headless Chromium and in Quire, compare boxes.

Usage: scripts/browser-oracle.py BOOK... [--chapters SPEC] [--size WxH] [--font-size PX]
       [--margins T,R,B,L|PX] [--json REPORT] [--tolerance PX] [--quire BIN] [--chromium BIN]

Design. Line breaks differ by design (Quire sets paragraphs with Knuth-Plass, a browser
greedily), and pages cut the flow where a browser has one long scroll, so the oracle compares
BOXES, not lines: for every text block (an element whose own text makes line boxes) the left
and right edges of its content box, its font size, its list marker; image sizes; the order of
blocks. Vertical positions are not compared (they depend on pages and line breaks).
Notes that Quire moves to the page's foot (`note: true` in the manifest's blocks) are
compared by their edges only: their font size (set smaller), their place in the order of
blocks and the space around them differ by design.

Quire side: `quire render BOOK --boxes` writes `blocks` per page (index, tag, source, x, y,
width, height, fontSize, marker). `source` is the element's preorder ordinal among the
chapter document's elements (0 = <html>), so block k maps to
`document.getElementsByTagName("*")[source]` in the browser when both parsed the same XML.
That is why the chapter is loaded as XHTML (Chromium's XML parser, as a reading system does;
no <tbody> is invented). The mapping is checked: the element name must match `tag` (an
anonymous paragraph, tag "", maps to its parent element, whose content box it spans).

Browser side: Chromium is driven over the DevTools protocol on a pipe (standard library only,
no selenium). Its fonts are Quire's: a fontconfig file that sees only the repository's
fonts/ folder, and profile preferences that make the generic families the ones Quire maps
them to (serif: Noto Serif, sans-serif: DejaVu Sans, monospace: Noto Sans Mono, all at
16 px). Quire's user-agent sheet (read from Sources/QuireIngest/Style/UserAgentSheet.swift)
is injected in a cascade layer, so it overrides Chromium's defaults but loses to every
publisher rule, as a user-agent sheet does; with it go Quire's e-reader choices (body
margin 0, images scaled down to fit the text area, `line-height: normal` = --line-height). The viewport is the page's text area (page size minus margins), so browser x + left
margin = Quire x. A --font-size other than 16 scales the viewport: Quire scales every CSS
length with the reader's font size, a browser does that under page zoom.

Agreement: a block agrees when both content-box edges are within --tolerance px (2); an
inline block (inline-block, inline-table) when its content width is (where it sits in its
line follows the line breaks, which differ by design), and a block inside one when its
edges from that box's content edge (manifest `inlineX`) do. The
headline is agreeing blocks / (Quire blocks + browser text blocks Quire has no block for).
Disagreements are grouped into classes (element, what differs) with counts and examples:
those tell which CSS feature to fix first.
"""

import argparse
import hashlib
import json
import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class OracleError(Exception):
    """A failure the harness reports in one line (exit 1)."""


# MARK: Quire


def quire_binary(explicit):
    if explicit:
        return explicit
    for cand in (ROOT / ".build/debug/quire", ROOT / ".build/release/quire"):
        if cand.exists():
            return str(cand)
    found = shutil.which("quire")
    if not found:
        raise OracleError("no quire binary: run `swift build` or pass --quire")
    return found


def run_quire(args, book, out_dir):
    # --cache off: the boxes are this binary's layout, never a persisted one that another
    # build with the same engine version left in ~/.cache/quire (builds of other branches,
    # or of this one before a change, share that folder and that key).
    cmd = [quire_binary(args.quire), "render", str(book), "-o", str(out_dir), "--boxes",
           "--cache", "off", "--pages", "1", "--size", args.size, "--font-size", str(args.font_size),
           "--publisher-styles", args.publisher_styles]
    if args.margins:
        cmd += ["--margins", args.margins]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise OracleError(f"quire render failed ({proc.returncode}): {proc.stderr.strip()[:300]}")
    return json.loads((out_dir / "manifest.json").read_text())


def uniform_margins(layout):
    m = layout["margins"]
    return {"top": m[0], "right": m[1], "bottom": m[2], "left": m[3]}


def quire_chapters(manifest):
    """spine → {href, blocks: {index: box + text}, images: [...], order: [index...]}."""
    chapters = {}
    for page in manifest["pages"]:
        ch = chapters.setdefault(page["spine"], {"href": page["href"], "blocks": {},
                                                 "images": [], "order": []})
        for b in page.get("blocks") or []:
            if b["index"] not in ch["blocks"]:
                ch["blocks"][b["index"]] = dict(b, text="", page=page["number"], pages=0,
                                                lines=0)
                ch["order"].append(b["index"])
            blk = ch["blocks"][b["index"]]
            blk["pages"] += 1
            blk["bottom"] = b["y"] + b["height"]
        for line in page.get("lines") or []:
            blk = ch["blocks"].get(line["block"])
            if blk is not None and line.get("role", "text") in ("text", "note"):
                blk["text"] += line["text"] + " "
                blk["lines"] += 1
        ch["images"] += page.get("images") or []
        notes = [b for b in page.get("blocks") or [] if b.get("note")]
        for f in page.get("inlineBoxes") or []:
            if f.get("pseudo"):
                # A ::before/::after box: no DOM API gives its rects; a fixture checks it
                # through its element's fragments and inline blocks' widths.
                continue
            middle = f["y"] + f["height"] / 2
            in_note = any(n["y"] <= middle <= n["y"] + n["height"] for n in notes)
            ch.setdefault("inlineBoxes", {}).setdefault(f["source"], []).append(
                dict(f, page=page["number"], note=in_note))
    return chapters


# MARK: Book files


def user_agent_css(line_height):
    """Quire's user-agent sheet, read from its Swift source so the two never drift apart."""
    src = (ROOT / "Sources/QuireIngest/Style/UserAgentSheet.swift").read_text()
    m = re.search(r'static let css = """\n(.*?)\n\s*"""', src, re.S)
    if not m:
        raise OracleError("UserAgentSheet.swift: no css string literal found")
    # Quire's e-reader choices outside the sheet: the page has the margins, and images are
    # scaled down (never up) to fit the text area.
    # `line-height: normal` is --line-height in Quire.
    return (m.group(1) + "\nbody { margin: 0 }\nimg, svg { max-width: 100%; max-height: 100vh }\n"
            + f":root {{ line-height: {line_height} }}\n")


def unpack_book(book, work):
    """The folder holding the book's files and a function from an href to its file."""
    if zipfile.is_zipfile(book):
        root = work / "book"
        with zipfile.ZipFile(book) as z:
            for info in z.infolist():
                target = (root / info.filename).resolve()
                if not str(target).startswith(str(root.resolve())) or info.is_dir():
                    continue  # hostile names stay out of the work folder
                target.parent.mkdir(parents=True, exist_ok=True)
                with z.open(info) as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst)
        deobfuscate_fonts(root)
        return root
    root = work / "book"
    root.mkdir()
    for entry in Path(book).resolve().parent.iterdir():
        (root / entry.name).symlink_to(entry)
    return root


OCF_NS = "urn:oasis:names:tc:opendocument:xmlns:container"
XMLENC_NS = "http://www.w3.org/2001/04/xmlenc#"
OBFUSCATIONS = {"http://www.idpf.org/2008/embedding": 1040, "http://ns.adobe.com/pdf/enc#RC": 1024}


def package_identifier(root):
    """The package's unique identifier (the dc:identifier its `unique-identifier` names)."""
    container = ET.parse(root / "META-INF/container.xml").getroot()
    rootfile = container.find(f".//{{{OCF_NS}}}rootfile")
    opf = ET.parse(root / urllib.parse.unquote(rootfile.get("full-path"))).getroot()
    uid = opf.get("unique-identifier")
    for el in opf.iter("{http://purl.org/dc/elements/1.1/}identifier"):
        if el.get("id") == uid:
            return el.text or ""
    return None


def obfuscation_key(algorithm, identifier):
    """OCF 3.3 §4.3.4 (IDPF: SHA-1 of the identifier without whitespace) or Adobe's (the 16
    bytes of its urn:uuid), as Sources/QuireIngest/Package/Encryption.swift computes them."""
    if algorithm.startswith("http://www.idpf.org/"):
        cleaned = "".join(c for c in identifier if c not in " \t\n\r")
        return hashlib.sha1(cleaned.encode("utf-8")).digest()
    hexdigits = re.sub(r"[^0-9a-f]", "", identifier.lower().removeprefix("urn:uuid:"))
    return bytes.fromhex(hexdigits) if len(hexdigits) == 32 else None


def deobfuscate_fonts(root):
    """Undo EPUB font obfuscation in the unpacked copy, so Chromium loads the publisher's
    fonts as Quire does (a browser opening the files directly cannot, and falls back to
    other faces whose widths move floats, line numbers and inline boxes)."""
    enc = root / "META-INF/encryption.xml"
    if not enc.is_file():
        return
    try:
        identifier = package_identifier(root)
        entries = ET.parse(enc).getroot().iter(f"{{{XMLENC_NS}}}EncryptedData")
    except (ET.ParseError, OSError, AttributeError, TypeError):
        return
    for data in entries:
        method = data.find(f"{{{XMLENC_NS}}}EncryptionMethod")
        ref = data.find(f".//{{{XMLENC_NS}}}CipherReference")
        algorithm = method.get("Algorithm", "") if method is not None else ""
        if algorithm not in OBFUSCATIONS or ref is None or identifier is None:
            continue
        key = obfuscation_key(algorithm, identifier)
        target = (root / urllib.parse.unquote(ref.get("URI", ""))).resolve()
        if not key or not str(target).startswith(str(root.resolve())) or not target.is_file():
            continue
        body = bytearray(target.read_bytes())
        for i in range(min(len(body), OBFUSCATIONS[algorithm])):
            body[i] ^= key[i % len(key)]
        target.write_bytes(bytes(body))


def chapter_url(root, href):
    """A file URL Chromium parses with its XML parser when the chapter is well-formed XML."""
    path = root / urllib.parse.unquote(href)
    if not path.exists():
        raise OracleError(f"{href}: not found in the book")
    try:
        ET.parse(path)
        well_formed = True
    except ET.ParseError as e:
        # expat knows no HTML entities; libxml2 (both engines) resolves the XHTML DTD's.
        well_formed = "undefined entity" in str(e)
    if path.suffix.lower() in (".xhtml", ".xht", ".xml") or not well_formed:
        return Path(os.path.abspath(path)).as_uri(), well_formed
    copy = path.with_name(path.name + ".oracle.xhtml")
    if copy.is_symlink() or not copy.exists():
        copy.unlink(missing_ok=True)
        shutil.copyfile(path, copy)
    return Path(os.path.abspath(copy)).as_uri(), True


# MARK: Chromium over the DevTools pipe


def chromium_binary(explicit):
    for cand in ([explicit] if explicit else []) + ["chromium", "chromium-browser", "google-chrome"]:
        found = shutil.which(cand) if cand else None
        if found:
            return found
    return None


# Quire maps a generic family to one face whatever the content language (FontSet.generic);
# Chromium keeps a default per script, and for Japanese, Chinese and Korean text it asks
# fontconfig for a CJK face first, which would draw ©, ®, ¼ 1 em wide where Quire draws
# them in Noto Serif. Both choices are allowed (CSS Fonts 4 §4.2: generic families may vary
# by language); the oracle gives both engines the same one, and fallback for the
# characters Noto Serif lacks stays language-aware in both (FontSet.face(for:…cjkContent:)).
GENERIC_SCRIPTS = ("Zyyy", "Jpan", "Hans", "Hant", "Hang")


class Chromium:
    """One headless browser; one page target; commands over --remote-debugging-pipe."""

    def __init__(self, binary, work, timeout):
        self.timeout = timeout
        self.next_id = 0
        self.buf = b""
        profile = work / "profile"
        (profile / "Default").mkdir(parents=True)
        fonts = {"standard": "Noto Serif", "serif": "Noto Serif", "sansserif": "DejaVu Sans",
                 "fixed": "Noto Sans Mono", "cursive": "Noto Serif", "fantasy": "Noto Serif"}
        prefs = {"webkit": {"webprefs": {
            "fonts": {k: {script: v for script in GENERIC_SCRIPTS} for k, v in fonts.items()},
            "default_font_size": 16, "default_fixed_font_size": 16, "minimum_font_size": 0,
            "minimum_logical_font_size": 0}}}
        (profile / "Default/Preferences").write_text(json.dumps(prefs))
        conf = work / "fonts.conf"
        conf.write_text(
            '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
            f"  <dir>{ROOT / 'fonts'}</dir>\n  <cachedir>{work / 'fontcache'}</cachedir>\n"
            "</fontconfig>\n")
        env = dict(os.environ, FONTCONFIG_FILE=str(conf))
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def wire():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", "--no-first-run",
             "--disable-extensions", "--allow-file-access-from-files", "--mute-audio",
             "--font-render-hinting=none", "--force-device-scale-factor=1", "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=None)
        attached = self.call("Target.attachToTarget",
                             {"targetId": target["targetId"], "flatten": True}, session=None)
        self.session = attached["sessionId"]
        self.call("Page.enable")
        self.call("Emulation.setScriptExecutionDisabled", {"value": True})

    def _message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
                raise OracleError("chromium did not answer in time")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise OracleError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session="page", wait_event=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session == "page":
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        result, seen_event = None, wait_event is None
        while result is None or not seen_event:
            m = self._message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise OracleError(f"{method}: {m['error'].get('message')}")
                result = m.get("result", {})
            elif wait_event and m.get("method") == wait_event:
                seen_event = True
        return result

    def measure(self, url, width, height, ua_css):
        # Device scale 2: at 1, Chromium on Linux sets glyphs at whole pixels (no subpixel
        # positioning), so every advance is rounded ("2018" in DejaVu Sans 16 px is 40 px, not
        # 40.72) and text widths drift from Quire's unrounded HarfBuzz advances by up to a
        # pixel per glyph. Layout stays in CSS pixels either way.
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": False})
        self.call("Page.navigate", {"url": url}, wait_event="Page.loadEventFired")
        res = self.call("Runtime.evaluate", {
            "expression": f"({MEASURE_JS})({json.dumps(ua_css)})", "awaitPromise": True,
            "returnByValue": True})
        if "exceptionDetails" in res:
            raise OracleError(f"{url}: {res['exceptionDetails'].get('text')} "
                              f"{res['exceptionDetails'].get('exception', {}).get('description', '')[:200]}")
        return res["result"]["value"]

    def close(self):
        try:
            self.call("Browser.close", session=None)
        except OracleError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)


# Runs in the page: inject Quire's UA sheet in a layer, wait for fonts and images, then
# report every element's name (ordinals index this list), the content box of every visible
# block-level element, the own text of text blocks, list markers and images.
MEASURE_JS = r"""
async (uaCss) => {
  const all = Array.from(document.getElementsByTagName('*'));
  const tags = all.map(e => e.localName);
  if (document.documentElement.localName === 'parsererror' ||
      document.getElementsByTagName('parsererror').length)
    return {tags, parseError: true, boxes: [], images: []};
  const style = document.createElementNS('http://www.w3.org/1999/xhtml', 'style');
  style.textContent = '@layer quire-ua {\n' + uaCss + '\n}';
  const host = document.head || document.documentElement;
  host.insertBefore(style, host.firstChild);
  void document.documentElement.offsetHeight;
  await document.fonts.ready;
  await Promise.all(Array.from(document.getElementsByTagName('img')).map(i =>
    i.complete ? null : new Promise(r => { i.onload = i.onerror = r; setTimeout(r, 3000); })));
  void document.documentElement.offsetHeight;
  await document.fonts.ready;
  // Quire scales an image down to the text area keeping its aspect; `max-width: 100%`
  // alone squashes one whose width and height attributes both set its size (the height
  // attribute is not clamped with the width). Such an image gets the other side `auto`.
  for (const img of document.getElementsByTagName('img')) {
    const aw = parseFloat(img.getAttribute('width')), ah = parseFloat(img.getAttribute('height'));
    if (!(aw > 0 && ah > 0)) continue;
    const r = img.getBoundingClientRect();
    if (r.width < aw - 0.5 && Math.abs(r.height - ah) < 0.5) img.style.height = 'auto';
    else if (r.height < ah - 0.5 && Math.abs(r.width - aw) < 0.5) img.style.width = 'auto';
  }
  void document.documentElement.offsetHeight;

  const index = new Map(all.map((e, i) => [e, i]));
  const styles = all.map(e => getComputedStyle(e));
  const blockish = i => {
    const d = styles[i].display;
    // Atomic inline boxes hold a block of their own (CSS 2.1 §9.2.4): Quire gives them one.
    if (['inline-block', 'inline-table', 'inline-flex', 'inline-grid'].includes(d)) return true;
    return !(d.startsWith('inline') || d === 'contents' || d === 'none' || d.startsWith('ruby')
             || d === 'table-column' || d === 'table-column-group');
  };
  const container = el => {
    for (let e = el; e; e = e.parentElement) {
      const i = index.get(e);
      if (i !== undefined && blockish(i)) return i;
    }
    return -1;
  };
  const own = new Map();
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!/\S/.test(t.data) || !t.parentElement) continue;
    const pi = index.get(t.parentElement);
    if (pi === undefined || ['script', 'style', 'title'].includes(tags[pi])) continue;
    range.selectNodeContents(t);
    if (range.getClientRects().length === 0) continue;
    const c = container(t.parentElement);
    if (c < 0) continue;
    const s = (own.get(c) || '') + t.data.replace(/\s+/g, ' ');
    own.set(c, s.length > 400 ? s.slice(0, 400) : s);
  }
  const greek = 'αβγδεζηθικλμνξοπρστυφχψω';
  const alpha = (n, upper) => { let s = ''; while (n > 0) { n--; s = String.fromCharCode(97 + n % 26) + s; n = Math.floor(n / 26); } return upper ? s.toUpperCase() : s; };
  const roman = n => { if (n <= 0 || n >= 4000) return String(n); const t = [[1000,'m'],[900,'cm'],[500,'d'],[400,'cd'],[100,'c'],[90,'xc'],[50,'l'],[40,'xl'],[10,'x'],[9,'ix'],[5,'v'],[4,'iv'],[1,'i']]; let s = ''; for (const [v, r] of t) while (n >= v) { s += r; n -= v; } return s; };
  const markerText = (type, n) => {
    switch (type) {
      case 'disc': return '•'; case 'circle': return '◦'; case 'square': return '▪';
      case 'none': return '';
      case 'decimal': return n + '.';
      case 'decimal-leading-zero': return (n >= 0 && n < 10 ? '0' : '') + n + '.';
      case 'lower-alpha': case 'lower-latin': return alpha(n, false) + '.';
      case 'upper-alpha': case 'upper-latin': return alpha(n, true) + '.';
      case 'lower-roman': return roman(n) + '.';
      case 'upper-roman': return roman(n).toUpperCase() + '.';
      case 'lower-greek': { let s = '', m = n; while (m > 0) { m--; s = greek[m % 24] + s; m = Math.floor(m / 24); } return s + '.'; }
    }
    if (/^".*"$/.test(type)) return type.slice(1, -1);
    return '[' + type + ' ' + n + ']';
  };
  const ordinal = new Map();
  for (let i = 0; i < all.length; i++) {
    const list = all[i];
    const items = Array.from(list.children).filter(c => index.has(c) && styles[index.get(c)].display === 'list-item');
    if (!items.length) continue;
    const reversed = list.localName === 'ol' && list.hasAttribute('reversed');
    const start = parseInt(list.getAttribute('start'));
    let n = Number.isFinite(start) && list.localName === 'ol' ? start : (reversed ? items.length : 1);
    for (const li of items) {
      const v = parseInt(li.getAttribute('value'));
      if (Number.isFinite(v)) n = v;
      ordinal.set(li, n);
      n += reversed ? -1 : 1;
    }
  }
  const listItem = i => {
    for (let e = all[i]; e; e = e.parentElement) {
      const k = index.get(e);
      if (k !== undefined && styles[k].display === 'list-item') return k;
    }
    return -1;
  };
  const px = v => parseFloat(v) || 0;
  // The layout feature a block sits in (for the disagreement classes), nearest first.
  const context = i => {
    for (let e = all[i]; e; e = e.parentElement) {
      const k = index.get(e);
      if (k === undefined) continue;
      const s = styles[k];
      if (s.display === 'table-cell' || s.display === 'table-caption') return 'table';
      if (s.float !== 'none') return 'float';
      if (s.position === 'absolute' || s.position === 'fixed') return 'positioned';
      if (s.columnCount !== 'auto') return 'columns';
      if (s.display.startsWith('flex') || s.display.startsWith('grid')) return s.display;
    }
    return '';
  };
  // Inside a float at any depth (a floated table's cells are in a table and in a float).
  const inFloat = i => {
    for (let e = all[i]; e; e = e.parentElement) {
      const k = index.get(e);
      if (k !== undefined && styles[k].float !== 'none') return true;
    }
    return false;
  };
  const boxes = [];
  for (let i = 0; i < all.length; i++) {
    if (!blockish(i)) continue;
    const rects = all[i].getClientRects();
    if (!rects.length) continue;
    const r = all[i].getBoundingClientRect();
    const s = styles[i];
    // A cell of a collapsed table owns half of each resolved border (CSS 2.1 §17.6.2): its
    // computed border widths are the whole ones, its border box spans from the middle of one
    // grid line to the middle of the next.
    const table = s.display === 'table-cell' ? all[i].closest('table') : null;
    const half = table && getComputedStyle(table).borderCollapse === 'collapse' ? 0.5 : 1;
    const box = {i, l: r.left + half * px(s.borderLeftWidth) + px(s.paddingLeft),
                 r: r.right - half * px(s.borderRightWidth) - px(s.paddingRight),
                 t: r.top + half * px(s.borderTopWidth) + px(s.paddingTop),
                 b: r.bottom - half * px(s.borderBottomWidth) - px(s.paddingBottom),
                 fs: px(s.fontSize)};
    if (own.has(i)) { box.text = own.get(i); box.li = listItem(i); box.ctx = context(i); box.inFloat = inFloat(i); }
    // One line box: every fragment of the content shares a horizontal band (for the height
    // check; a block holding blocks spans several bands and is left out).
    if (own.has(i)) {
      range.selectNodeContents(all[i]);
      const f = [...range.getClientRects()].filter(q => q.width > 0 && q.height > 0);
      box.oneLine = f.length > 0 && Math.max(...f.map(q => q.top)) < Math.min(...f.map(q => q.bottom)) - 1;
    }
    if (s.display.startsWith('inline')) box.atomic = true;
    // A block inside an atomic inline box: where the line put that box differs by design, so
    // the block's edges compare from the box's content edge (an inline table's border edge).
    for (let e = all[i].parentElement; e && !box.atomic; e = e.parentElement) {
      const k = index.get(e);
      if (k === undefined || !styles[k].display.startsWith('inline-')) continue;
      const ar = e.getBoundingClientRect(), as = styles[k];
      box.inBox = as.display === 'inline-table' ? ar.left
        : ar.left + px(as.borderLeftWidth) + px(as.paddingLeft);
      break;
    }
    // A float's own box and the block its source sits in (for the float-top check).
    if (s.float !== 'none' && all[i].parentElement) { box.float = true; box.parent = container(all[i].parentElement); }
    if (s.display === 'list-item') {
      box.marker = markerText(s.listStyleType, ordinal.get(all[i]) ?? 1);
      if (s.listStyleImage && s.listStyleImage !== 'none') box.marker = '[image]';
      // An inside marker is the first inline box of the item's first line (text, not a marker).
      if (s.listStylePosition === 'inside') box.markerInside = true;
    }
    boxes.push(box);
  }
  const images = [];
  for (let i = 0; i < all.length; i++) {
    if (tags[i] !== 'img' && tags[i] !== 'image') continue;
    const r = all[i].getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const src = tags[i] === 'img' ? all[i].currentSrc || all[i].src
      : new URL(all[i].getAttribute('href') || all[i].getAttributeNS('http://www.w3.org/1999/xlink', 'href') || '', document.baseURI).href;
    images.push({i, src, x: r.left, y: r.top, w: r.width, h: r.height});
  }
  // Decorated inline boxes (padding, borders, margins, background images): the border
  // box of each line fragment, as Quire's manifest `inlineBoxes` reports them.
  const inlineBoxes = [];
  for (let i = 0; i < all.length; i++) {
    const s = styles[i];
    if (s.display !== 'inline') continue;
    const sides = ['Left', 'Right', 'Top', 'Bottom'];
    const decorated = sides.some(k => px(s['padding' + k]) || px(s['border' + k + 'Width']))
      || px(s.marginLeft) || px(s.marginRight) || s.backgroundImage !== 'none';
    if (!decorated) continue;
    const rects = Array.from(all[i].getClientRects()).filter(r => r.width > 0 || r.height > 0);
    inlineBoxes.push({i, rects: rects.map(r => [r.left, r.top, r.width, r.height])});
  }
  return {tags, boxes, images, inlineBoxes, parseError: false};
}
"""


# MARK: Comparison


def norm_text(s):
    return re.sub(r"[\W_]+", "", s.replace("\u00ad", "")).lower()


def texts_agree(quire_text, browser_text):
    """Loose: one text's first letters appear in the other (transforms, markers, hyphens aside)."""
    q, b = norm_text(quire_text), norm_text(browser_text)
    if not q or not b:
        return True
    probe = q[:12] if len(q) <= len(b) else b[:12]
    return probe in (b if len(q) <= len(b) else q)


class Tally:
    """Counts and disagreement classes over any number of chapters."""

    def __init__(self):
        self.c = Counter()
        self.classes = defaultdict(lambda: {"count": 0, "deltas": [], "examples": []})
        self.chapters = []

    def miss(self, cls, where, delta=None):
        k = self.classes[cls]
        k["count"] += 1
        if delta is not None:
            k["deltas"].append(delta)
        if len(k["examples"]) < 3:
            k["examples"].append(where)

    def pct(self, good, total):
        return round(100.0 * self.c[good] / self.c[total], 1) if self.c[total] else None

    def summary(self):
        return {
            "blocks": self.c["blocks"], "blocksAgree": self.c["agree"],
            "agreementPercent": self.pct("agree", "blocks"),
            "fontSizePercent": self.pct("fontAgree", "fontChecked"),
            "markers": self.c["markers"], "markerPercent": self.pct("markerAgree", "markers"),
            "images": self.c["images"], "imagePercent": self.pct("imageAgree", "images"),
            "gaps": self.c["gaps"], "spacingPercent": self.pct("gapAgree", "gaps"),
            "lineHeights": self.c["heights"], "lineHeightPercent": self.pct("heightAgree", "heights"),
            "unmapped": self.c["unmapped"], "missingInQuire": self.c["missing"],
            "hiddenInBrowser": self.c["hidden"], "textMismatches": self.c["textMismatch"],
            "orderInversions": self.c["inversions"],
            "floatTops": self.c["floatTops"], "floatTopPercent": self.pct("floatTopAgree", "floatTops"),
            "inlineFragments": self.c["inlineFragments"],
            "inlineFragmentPercent": self.pct("inlineAgree", "inlineFragments"),
        }

    def class_list(self, limit=None):
        out = []
        for name, k in sorted(self.classes.items(), key=lambda kv: -kv[1]["count"]):
            med = round(statistics.median(k["deltas"]), 1) if k["deltas"] else None
            out.append({"class": name, "count": k["count"], "medianDelta": med,
                        "examples": k["examples"]})
        return out[:limit] if limit else out


def tag_class(tag):
    return "anonymous" if tag == "" else tag


def compare_block(tally, q, el, dx, scale, tol, where):
    """One Quire block against the browser element its `source` names."""
    tally.c["blocks"] += 1
    tag = tag_class(q["tag"]) + (f" in {el['ctx']}" if el.get("ctx") else "")
    ql, qr = q["x"] - dx, q["x"] + q["width"] - dx
    bl, br = el["l"] * scale, el["r"] * scale
    dl, dr = ql - bl, qr - br
    if el.get("atomic"):
        # An inline block sits where its line's breaks and justification put it (those differ
        # by design): its content box's width is what compares.
        dl, dr = 0.0, (qr - ql) - (br - bl)
    elif q.get("inlineX") is not None and el.get("inBox") is not None:
        # A block inside an inline block: its edges from the box's content edge in each engine.
        ql, qr = q["inlineX"], q["inlineX"] + q["width"]
        bl, br = (el["l"] - el["inBox"]) * scale, (el["r"] - el["inBox"]) * scale
        dl, dr = ql - bl, qr - br
    ok_l, ok_r = abs(dl) <= tol, abs(dr) <= tol
    if ok_l and ok_r:
        tally.c["agree"] += 1
    else:
        side = "left+right" if not ok_l and not ok_r else ("left" if not ok_l else "right")
        delta = dl if not ok_l else dr
        tally.miss(f"{tag}: {side} edge", dict(where, quire=[round(ql, 1), round(qr, 1)],
                                                browser=[round(bl, 1), round(br, 1)]), round(delta, 1))
    if q.get("note"):
        return  # a note at the page's foot is set smaller by design (Blocks/Footnotes.swift)
    tally.c["fontChecked"] += 1
    if abs(q["fontSize"] - el["fs"] * scale) <= 0.5:
        tally.c["fontAgree"] += 1
    else:
        tally.miss(f"{tag}: font size", dict(where, quire=q["fontSize"], browser=el["fs"] * scale),
                   round(q["fontSize"] - el["fs"] * scale, 1))


def compare_chapter(tally, spine, qch, dom, margins, scale, tol):
    tags, boxes = dom["tags"], {b["i"]: b for b in dom["boxes"]}
    dx = margins["left"]
    seen, quire_markers, last_source = set(), {}, -1
    for index in qch["order"]:
        q = qch["blocks"][index]
        where = {"spine": spine, "page": q["page"], "block": index, "tag": q["tag"],
                 "text": q["text"][:60].strip()}
        src = q["source"]
        if q["tag"].startswith("::"):
            continue  # a pseudo-element's float (a drop cap): no element of its own
        if src < 0 or src >= len(tags) or (q["tag"] and tags[src] != q["tag"]):
            tally.c["blocks"] += 1
            tally.c["unmapped"] += 1
            tally.miss(f"{tag_class(q['tag'])}: no browser element", where)
            continue
        el = boxes.get(src)
        if el is None:
            tally.c["blocks"] += 1
            tally.c["hidden"] += 1
            tally.miss(f"{tag_class(q['tag'])}: not shown by the browser", where)
            continue
        # Notes leave the running text's order, and so do floats (set where they fit).
        if q["tag"] and not q.get("note") and not el.get("inFloat"):
            if src < last_source:
                tally.c["inversions"] += 1
            last_source = src
        if "text" in el and not texts_agree(q["text"], el["text"]):
            tally.c["textMismatch"] += 1
        seen.add(src)
        compare_block(tally, q, el, dx, scale, tol, where)
        li = el.get("li", -1)
        if li >= 0 and li not in quire_markers:
            quire_markers[li] = q.get("marker") or ""
            inside = boxes.get(li, {}).get("markerInside")
            if inside and not quire_markers[li]:
                # Quire sets an inside marker as the line's first text: compare that text.
                bm = boxes[li].get("marker", "")
                quire_markers[li] = bm if bm and q.get("text", "").lstrip().startswith(bm) else ""
    for b in dom["boxes"]:
        if "text" in b and b["i"] not in seen and norm_text(b["text"]):
            tally.c["blocks"] += 1
            tally.c["missing"] += 1
            ctx = f" in {b['ctx']}" if b.get("ctx") else ""
            tally.miss(f"{tags[b['i']]}{ctx}: no Quire block", {"spine": spine, "tag": tags[b["i"]],
                                                           "text": b["text"][:60].strip()})
    compare_spacing(tally, spine, qch, boxes, tags, scale, tol)
    compare_line_heights(tally, spine, qch, boxes, tags, scale, tol)
    compare_float_tops(tally, spine, qch, boxes, scale, tol)
    compare_markers(tally, spine, boxes, quire_markers, tags)
    compare_images(tally, spine, qch["images"], dom["images"], dx, scale, tol, dom["root"])
    compare_inline_boxes(tally, spine, qch.get("inlineBoxes", {}), dom, dx, scale, tol)


def compare_inline_boxes(tally, spine, quire, dom, dx, scale, tol):
    """Decorated inline boxes (padding, borders, margins): each line fragment's border box,
    Quire's manifest `inlineBoxes` against `getClientRects`, matched by element ordinal.
    Fragments compare by left edge, width and height, and by how far each lies below the
    box's first fragment (line breaks differ by design: a fixture pins them with short
    lines and `<br>`). A box split differently is one disagreement per fragment. Boxes in a
    note Quire moved to the page's foot (set smaller) compare by their number of fragments."""
    tags = dom["tags"]
    browser = {b["i"]: b["rects"] for b in dom.get("inlineBoxes", [])}
    for src in sorted(set(quire) | set(browser)):
        qf, bf = quire.get(src, []), browser.get(src, [])
        tag = tags[src] if 0 <= src < len(tags) else "?"
        where = {"spine": spine, "tag": tag, "source": src}
        if len(qf) != len(bf):
            n = max(len(qf), len(bf))
            tally.c["inlineFragments"] += n
            tally.miss(f"inline {tag}: fragments", dict(where, quire=len(qf), browser=len(bf)),
                       len(qf) - len(bf))
            continue
        if qf and all(q["note"] for q in qf):
            # In a note at the page's foot, set smaller by design: only the count compares.
            tally.c["inlineFragments"] += len(qf)
            tally.c["inlineAgree"] += len(qf)
            continue
        for k, (q, b) in enumerate(zip(qf, bf)):
            tally.c["inlineFragments"] += 1
            bl, bw, bh = b[0] * scale, b[2] * scale, b[3] * scale
            dl, dw, dh = q["x"] - dx - bl, q["width"] - bw, q["height"] - bh
            dy = 0.0
            if k > 0 and q["page"] == qf[0]["page"]:
                dy = (q["y"] - qf[0]["y"]) - (b[1] - bf[0][1]) * scale
            worst = max((abs(dl), "left"), (abs(dw), "width"), (abs(dh), "height"),
                        (abs(dy), "line"))
            if worst[0] <= tol:
                tally.c["inlineAgree"] += 1
            else:
                tally.miss(f"inline {tag}: {worst[1]}",
                           dict(where, fragment=k, quire=[q["x"] - dx, q["width"], q["height"]],
                                browser=[round(bl, 1), round(bw, 1), round(bh, 1)]),
                           round({"left": dl, "width": dw, "height": dh, "line": dy}[worst[1]], 1))


def compare_spacing(tally, spine, qch, boxes, tags, scale, tol):
    """Vertical space between consecutive named blocks that share a page (collapsed margins,
    padding): the gap from one's last line to the next one's first, against the gap between
    their content boxes in the browser. Cells and anonymous paragraphs are left out, and so
    are gaps that held a note Quire moved to the page foot (the browser's gap spans it)."""
    notes = sorted({b["source"] for b in qch["blocks"].values() if b.get("note")})
    prev = None
    for index in qch["order"]:
        q = qch["blocks"][index]
        ok = (q["tag"] not in ("", "td", "th") and not q.get("note") and q["source"] in boxes
              and 0 <= q["source"] < len(tags) and tags[q["source"]] == q["tag"]
              and not boxes[q["source"]].get("inFloat"))
        if ok and prev is not None and prev["pages"] == 1 and prev["page"] == q["page"] \
                and prev["source"] != q["source"] \
                and not any(prev["source"] < n < q["source"] for n in notes):
            a, b = boxes[prev["source"]], boxes[q["source"]]
            gq, gb = q["y"] - prev["bottom"], (b["t"] - a["b"]) * scale
            tally.c["gaps"] += 1
            if abs(gq - gb) <= tol:
                tally.c["gapAgree"] += 1
            else:
                ctx = f" in {b['ctx']}" if b.get("ctx") else ""
                tally.miss(f"spacing: {prev['tag']} → {q['tag']}{ctx}",
                           {"spine": spine, "page": q["page"], "block": index,
                            "text": q["text"][:40].strip(), "quire": round(gq, 1),
                            "browser": round(gb, 1)}, round(gq - gb, 1))
        prev = q if ok else None


def compare_line_heights(tally, spine, qch, boxes, tags, scale, tol):
    """The height of a block set on one line in both engines (its line box: line-height,
    mixed font sizes, inline images, vertical-align; CSS 2.1 §10.8). Line breaks differ by
    design, so only blocks that are one line on both sides are compared."""
    for index in qch["order"]:
        q = qch["blocks"][index]
        el = boxes.get(q["source"])
        if (q["tag"] in ("", "td", "th") or q.get("note") or el is None or el.get("inFloat")
                or not el.get("oneLine") or q["pages"] != 1 or q["lines"] != 1
                or not (0 <= q["source"] < len(tags)) or tags[q["source"]] != q["tag"]):
            continue
        hq, hb = q["bottom"] - q["y"], (el["b"] - el["t"]) * scale
        tally.c["heights"] += 1
        if abs(hq - hb) <= tol:
            tally.c["heightAgree"] += 1
        else:
            tally.miss(f"line height: {q['tag']}",
                       {"spine": spine, "page": q["page"], "block": index,
                        "text": q["text"][:40].strip(), "quire": round(hq, 1),
                        "browser": round(hb, 1)}, round(hq - hb, 1))


def compare_float_tops(tally, spine, qch, boxes, scale, tol):
    """Where a float starts (CSS 2.1 §9.5.1): a floated element's content top from the top of
    the block its source sits in (an inline float's paragraph), in both engines, when both
    are on one page. Line breaks differ by design, so a fixture pins the float's line with
    forced breaks or short lines; a float whose block is not a text block is left out."""
    first = {}
    for index in qch["order"]:
        q = qch["blocks"][index]
        first.setdefault(q["source"], q)
    for index in qch["order"]:
        q = qch["blocks"][index]
        el = boxes.get(q["source"])
        if not el or not el.get("float") or q["tag"].startswith("::"):
            continue
        p = first.get(el.get("parent", -1))
        if p is None or p["page"] != q["page"] or p["source"] not in boxes or p is q:
            continue
        gq, gb = q["y"] - p["y"], (el["t"] - boxes[p["source"]]["t"]) * scale
        tally.c["floatTops"] += 1
        if abs(gq - gb) <= tol:
            tally.c["floatTopAgree"] += 1
        else:
            tally.miss(f"float top: {q['tag']} in {p['tag'] or 'anonymous'}",
                       {"spine": spine, "page": q["page"], "block": index,
                        "text": q["text"][:40].strip(), "quire": round(gq, 1),
                        "browser": round(gb, 1)}, round(gq - gb, 1))


def compare_markers(tally, spine, boxes, quire_markers, tags):
    for li, qm in quire_markers.items():
        bm = boxes[li].get("marker", "") if li in boxes else ""
        tally.c["markers"] += 1
        if qm.strip() == bm.strip():
            tally.c["markerAgree"] += 1
        else:
            tally.miss("list marker", {"spine": spine, "tag": tags[li], "quire": qm, "browser": bm})


def compare_images(tally, spine, qimages, bimages, dx, scale, tol, root):
    def rel(src):
        if not src.startswith("file://"):
            return src
        path = urllib.request.url2pathname(urllib.parse.urlparse(src).path)
        try:
            return str(Path(path).relative_to(root))
        except ValueError:
            return path

    pending = defaultdict(list)
    for b in bimages:
        pending[rel(b["src"])].append(b)
    for q in qimages:
        tally.c["images"] += 1
        where = {"spine": spine, "href": q["href"]}
        cands = pending.get(q["href"])
        if not cands:
            tally.miss("image: not in the browser", where)
            continue
        b = cands.pop(0)
        dw, dh = q["width"] - b["w"] * scale, q["height"] - b["h"] * scale
        dxl = q["x"] - dx - b["x"] * scale
        if abs(dw) <= tol and abs(dh) <= tol and abs(dxl) <= tol:
            tally.c["imageAgree"] += 1
        elif abs(dw) > tol or abs(dh) > tol:
            tally.miss("image: size", dict(where, quire=[q["width"], q["height"]],
                                           browser=[round(b["w"] * scale, 1), round(b["h"] * scale, 1)]),
                       round(dw, 1))
        else:
            tally.miss("image: left edge", where, round(dxl, 1))


# MARK: Driver


def parse_chapters(spec, available):
    if spec in (None, "all"):
        return sorted(available)
    chosen = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise OracleError(f"--chapters: bad range {part!r} (spine indices, e.g. 0,3-5)")
        chosen.update(range(int(lo), int(hi or lo) + 1))
    return sorted(chosen & set(available))


def sample(items, limit):
    if not limit or len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(k * step)] for k in range(limit)]


def run_book(args, browser, book, work):
    """One book's report; `browser` is shared between books."""
    if not book.exists():
        raise OracleError(f"{book}: no such file")
    w, h = (int(v) for v in args.size.lower().split("x"))
    scale = args.font_size / 16.0
    tally = Tally()
    manifest = run_quire(args, book, work / "quire")
    margins = uniform_margins(manifest["layout"])
    chapters = quire_chapters(manifest)
    with_content = [s for s, c in chapters.items() if c["blocks"] or c["images"]]
    spines = sample(parse_chapters(args.chapters, with_content), args.max_chapters)
    root = Path(os.path.abspath(unpack_book(book, work)))
    ua_css = user_agent_css(manifest["layout"].get("lineHeight", 1.4))
    vw = round((w - margins["left"] - margins["right"]) / scale)
    vh = round((h - margins["top"] - margins["bottom"]) / scale)
    for spine in spines:
        ch = chapters[spine]
        url, xml = chapter_url(root, ch["href"])
        dom = browser.measure(url, vw, vh, ua_css)
        dom["root"] = root
        before = Counter(tally.c)
        if dom.get("parseError"):
            tally.miss("chapter: not well-formed XML in the browser", {"spine": spine})
            continue
        compare_chapter(tally, spine, ch, dom, margins, scale, args.tolerance)
        d = tally.c - before
        tally.chapters.append({"spine": spine, "href": ch["href"], "xml": xml,
                               "blocks": d["blocks"], "agree": d["agree"]})
        if args.verbose:
            print(f"  spine {spine:3} {ch['href']}: {d['agree']}/{d['blocks']} blocks agree",
                  file=sys.stderr)
    return tally, {"book": str(book), "margins": margins, "summary": tally.summary(),
                   "classes": tally.class_list(), "chapters": tally.chapters}


def run(args):
    binary = chromium_binary(args.chromium)
    if not binary:
        raise OracleError("chromium not found (Debian: apt-get install chromium chromium-driver)")
    total, books = Tally(), []
    with tempfile.TemporaryDirectory(prefix="quire-oracle-") as tmp:
        work = Path(tmp)
        browser = Chromium(binary, work, args.timeout)
        try:
            for k, book in enumerate(args.book):
                (work / f"b{k}").mkdir()
                try:
                    tally, report = run_book(args, browser, Path(book), work / f"b{k}")
                except OracleError as e:  # one bad book does not stop the others
                    books.append({"book": str(book), "error": str(e)})
                    continue
                books.append(report)
                total.c += tally.c
                for name, cls in tally.classes.items():
                    t = total.classes[name]
                    t["count"] += cls["count"]
                    t["deltas"] += cls["deltas"]
                    t["examples"] = (t["examples"] + [dict(e, book=Path(book).name)
                                                      for e in cls["examples"]])[:3]
        finally:
            browser.close()
    return {"size": args.size, "fontSize": args.font_size, "tolerance": args.tolerance,
            "chromium": binary, "summary": total.summary(), "classes": total.class_list(),
            "books": books}


def print_book(name, summary, classes, tolerance, limit):
    s = summary
    print(f"{name}: {s['blocksAgree']}/{s['blocks']} blocks agree within "
          f"{tolerance} px ({s['agreementPercent']} %)")
    print(f"  font size {s['fontSizePercent']} %, markers {s['markerPercent']} % of {s['markers']}, "
          f"images {s['imagePercent']} % of {s['images']}, spacing {s['spacingPercent']} % of "
          f"{s['gaps']} gaps; unmapped {s['unmapped']}, "
          f"missing in Quire {s['missingInQuire']}, hidden in browser {s['hiddenInBrowser']}, "
          f"text mismatches {s['textMismatches']}, order inversions {s['orderInversions']}")
    if s.get("lineHeights"):
        print(f"  one-line heights {s['lineHeightPercent']} % of {s['lineHeights']}")
    if s.get("floatTops"):
        print(f"  float tops {s['floatTopPercent']} % of {s['floatTops']}")
    if s.get("inlineFragments"):
        print(f"  inline box fragments {s['inlineFragmentPercent']} % of {s['inlineFragments']}")
    for k in classes[:limit]:
        ex = k["examples"][0] if k["examples"] else {}
        delta = f", median Δ {k['medianDelta']} px" if k["medianDelta"] is not None else ""
        print(f"  {k['count']:6}  {k['class']}{delta}   e.g. {json.dumps(ex, ensure_ascii=False)[:150]}")


def print_report(report, limit):
    for b in report["books"]:
        if "error" in b:
            print(f"{b['book']}: not compared: {b['error']}")
            continue
        print_book(b["book"], b["summary"], b["classes"], report["tolerance"], limit)
    if len(report["books"]) > 1:
        print_book("all", report["summary"], report["classes"], report["tolerance"], limit)


def main(argv=None):
    p = argparse.ArgumentParser(
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""Lay out the same chapters in Quire (render --boxes) and in headless Chromium
(Quire's fonts, Quire's user-agent sheet, a viewport as wide as Quire's text area) and
compare, for every text block mapped by its element: the content box's left and right
edges (the headline: % of blocks within --tolerance px), font size, list marker; image
sizes; the vertical space between consecutive blocks on a page; block order.
Line breaks and page breaks are not compared (they differ by design).""",
        epilog="Prints per-book agreement and the biggest disagreement classes; --json writes "
               "the full report. Exit 0 on success, 1 when a book could not be compared (the "
               "others still are), 2 when chromium is missing. See Benchmarks/browser-oracle.md.")
    p.add_argument("book", nargs="+", help="EPUBs or XHTML/HTML files (one browser for all)")
    p.add_argument("--chapters", help="spine indices as in the manifest (0-based), e.g. 0,3-5 [all with content]")
    p.add_argument("--max-chapters", type=int, default=0,
                   help="at most N chapters, evenly spaced (default: no limit)")
    p.add_argument("--size", default="600x800", help="page size WxH in px [600x800]")
    p.add_argument("--font-size", type=float, default=16, help="Quire's --font-size [16]")
    p.add_argument("--margins", help="Quire's --margins T,R,B,L|PX [Quire's default]")
    p.add_argument("--publisher-styles", default="on", choices=["on", "off"])
    p.add_argument("--tolerance", type=float, default=2.0, help="px an edge may differ [2]")
    p.add_argument("--json", help="write the full report (classes with examples) here")
    p.add_argument("--classes", type=int, default=8, help="disagreement classes printed [8]")
    p.add_argument("--quire", help="quire binary [.build/debug/quire]")
    p.add_argument("--chromium", help="chromium binary [chromium on PATH]")
    p.add_argument("--timeout", type=float, default=60, help="seconds per browser step [60]")
    p.add_argument("--verbose", action="store_true", help="per-chapter numbers on stderr")
    args = p.parse_args(argv)
    if not chromium_binary(args.chromium):
        print("browser-oracle: chromium not found (apt-get install chromium)", file=sys.stderr)
        return 2
    try:
        report = run(args)
    except OracleError as e:
        print(f"browser-oracle: {e}", file=sys.stderr)
        return 1
    print_report(report, args.classes)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False, default=str))
    return 1 if any("error" in b for b in report["books"]) else 0


if __name__ == "__main__":
    sys.exit(main())
