#!/usr/bin/env python3
"""The flipbook in a real browser: headless Chromium, driven by selenium, plays the folder
`quire flipbook` wrote, from file://, and the shown pages are compared with the page PNGs.

Usage: scripts/flipbook-browser-test.py --quire BIN --ltr BOOK --rtl BOOK [--fixed BOOK]
       [--json REPORT] [--keep DIR] [--chromedriver PATH] [--preview PNG]

--preview PNG only writes the README's picture (docs/previews/flipbook-spread.png, see
scripts/make-previews.sh): the LTR book's spreads in a landscape window, mid-turn.

For each book a flipbook is made at 300x400 px with 8-frame turns, then:
  single pages (a portrait viewport, 500x800): the page shown is page 1 and matches
  page-0001.png; the forward key (ArrowRight, ArrowLeft for the RTL book) plays the turn
  (frames drawn from the sprite sheet are counted by the player) and shows page 2, matching
  page-0002.png; the backward key shows page 1 again; a click on the forward edge turns too;
  then touch swipes (DevTools touch events on an emulated touch screen): right to left
  (left to right for the RTL book) shows page 3, matching page-0003.png, the other way page 2
  again, and a vertical or a short drag leaves page 2;
  spreads (a landscape viewport, 900x560): the views are the manifest's `spreads` — the
  book's own pairing, the one `render --spreads` writes (page 1 alone on the recto side,
  page-spread-* of a pre-paginated book, right to left) — so the first view shows spreads[0]
  (its pages on the sides the manifest says, data-spread its number) and the screenshot equals
  the still the manifest names for it; the forward key (ArrowRight, ArrowLeft for the RTL
  book) shows spreads[1] and then spreads[2], each screenshot equal to its still, the
  backward key spreads[1] again. A still is the two page PNGs side by side with the gutter
  shadow (darker than the plain pages at the spine, equal to them a tenth of a page away).
  --fixed adds a pre-paginated book (spread-none, page-spread-right) played the same way.
Every request the page made (the DevTools performance log's Network.requestWillBeSent) must
be a file:// URL inside the flipbook's folder: nothing leaves it, no server is involved.

A screenshot matches a PNG when the sizes are equal and at most 0.5 % of the pixels differ by
more than 16 in a channel (the browser draws the PNG at 1:1; the slack is for colour
management). Exit 0 when every check passes, 1 when one fails, 2 when chromium, chromedriver
or selenium are missing.
"""

import argparse
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    from PIL import Image
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.common.action_chains import ActionChains
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"flipbook-browser-test: {e} (install python3-selenium and python3-pil)", file=sys.stderr)
    sys.exit(2)

PAGE = (300, 400)
SINGLE_VIEWPORT = (500, 800)
SPREAD_VIEWPORT = (900, 560)


class Checks:
    def __init__(self):
        self.items = []

    def add(self, name, ok, detail=""):
        self.items.append({"name": name, "ok": bool(ok), "detail": detail})
        print(("ok   " if ok else "FAIL ") + name + (f": {detail}" if detail else ""))

    @property
    def ok(self):
        return all(i["ok"] for i in self.items)


def chromedriver_path(explicit):
    for cand in ([explicit] if explicit else []) + ["/usr/bin/chromedriver", "chromedriver"]:
        found = shutil.which(cand) if cand else None
        if found:
            return found
    return None


def browser(driver_path):
    opts = webdriver.ChromeOptions()
    for arg in ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--force-device-scale-factor=1", "--disable-extensions", "--no-first-run",
                "--window-size=1000,900", "--force-color-profile=srgb"]:
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=opts)
    # A touch screen: the page sees touch events (and `ontouchstart`), as on a phone.
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True,
                                                                 "maxTouchPoints": 1})
    return driver


def viewport(driver, size):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})


def state(driver):
    return driver.execute_script(
        "var d = document.body.dataset; return {state: d.state, page: d.page, pages: d.pages,"
        " spread: d.spread, layout: d.layout, frames: d.frames};")


def wait_for(driver, predicate, timeout=15):
    deadline = time.monotonic() + timeout
    s = state(driver)
    while time.monotonic() < deadline:
        s = state(driver)
        if predicate(s):
            return s
        time.sleep(0.05)
    return s


def open_book(driver, folder, size):
    viewport(driver, size)
    driver.get((folder / "index.html").as_uri())
    return wait_for(driver, lambda s: s["state"] == "idle")


def shown_image(driver):
    png = driver.find_element(By.ID, "pages").screenshot_as_png
    return Image.open(io.BytesIO(png)).convert("RGB")


def expected_image(folder, pages):
    images = [Image.open(folder / f"page-{n:04d}.png").convert("RGB") if n else
              Image.new("RGB", PAGE, "white") for n in pages]
    out = Image.new("RGB", (sum(i.width for i in images), images[0].height), "white")
    x = 0
    for i in images:
        out.paste(i, (x, 0))
        x += i.width
    return out


def compare(shot, want):
    """Whether `shot` matches `want`, and a description."""
    if shot.size != want.size:
        return False, f"screenshot {shot.size[0]}x{shot.size[1]}, PNG {want.size[0]}x{want.size[1]}"
    a, b = shot.tobytes(), want.tobytes()
    bad = 0
    for i in range(0, len(a), 3):
        if max(abs(a[i] - b[i]), abs(a[i + 1] - b[i + 1]), abs(a[i + 2] - b[i + 2])) > 16:
            bad += 1
    share = bad / (shot.size[0] * shot.size[1])
    return share <= 0.005, f"{share * 100:.3f} % of pixels differ"


def gutter(checks, folder, label, spread):
    """The spread still is the page PNGs side by side, darkened toward the spine only."""
    still = Image.open(folder / spread["file"]).convert("RGB")
    plain = expected_image(folder, [spread.get("left", 0), spread.get("right", 0)])
    if still.size != plain.size:
        checks.add(f"{label}: spread still size", False, f"{still.size} vs {plain.size}")
        return
    w, h = still.size
    spine = w // 2
    def mean(img, x0, x1):
        px = img.crop((x0, 0, x1, h)).tobytes()
        return sum(px) / max(1, len(px))
    near_still, near_plain = mean(still, spine - 3, spine + 3), mean(plain, spine - 3, spine + 3)
    far = PAGE[0] // 10
    same_far = still.crop((0, 0, spine - far, h)).tobytes() == plain.crop((0, 0, spine - far, h)).tobytes()
    checks.add(f"{label}: {spread['file']} carries the gutter shadow",
               near_still < near_plain - 10 and same_far,
               f"mean at the spine {near_still:.1f} vs plain {near_plain:.1f}, far side equal: {same_far}")


def sides(spread):
    return f"{spread.get('left', 0)},{spread.get('right', 0)}"


def check_spread(checks, driver, folder, name, spread):
    s = state(driver)
    want = sides(spread)
    checks.add(f"{name}: spread {spread['number']} shown, pages {want}",
               s["pages"] == want and s["spread"] == str(spread["number"]),
               f"shown {s['pages']} (spread {s['spread']})")
    still = Image.open(folder / spread["file"]).convert("RGB")
    ok, detail = compare(shown_image(driver), still)
    checks.add(f"{name}: screenshot matches {spread['file']}", ok, detail)


def check_view(checks, driver, folder, name, pages):
    s = state(driver)
    want = ",".join(str(p) for p in pages)
    checks.add(f"{name}: pages shown {want}", s["pages"] == want, f"shown {s['pages']}")
    ok, detail = compare(shown_image(driver), expected_image(folder, pages))
    checks.add(f"{name}: screenshot matches page PNGs {want}", ok, detail)


def turn(driver, key, until_pages):
    ActionChains(driver).send_keys(key).perform()
    return wait_for(driver, lambda s: s["state"] == "idle" and s["pages"] == until_pages)


def drag(driver, start, end):
    """A one-finger drag from `start` to `end` (fractions of the book's box), sent as a touch
    screen sends it through the Chrome DevTools Protocol: touchStart, eight touchMoves,
    touchEnd."""
    r = driver.execute_script(
        "var r = document.getElementById('book').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height];")
    at = lambda f: {"x": r[0] + r[2] * f[0], "y": r[1] + r[3] * f[1], "id": 1}
    touch = lambda kind, pts: driver.execute_cdp_cmd(
        "Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})
    touch("touchStart", [at(start)])
    for i in range(1, 9):
        k = i / 8
        touch("touchMove", [at((start[0] + (end[0] - start[0]) * k,
                                start[1] + (end[1] - start[1]) * k))])
    touch("touchEnd", [])


def swipe(driver, leftward, until_pages):
    """A horizontal swipe across the middle of the book, right to left when `leftward`; waits
    for the player to settle on `until_pages`."""
    a, b = (0.7, 0.5), (0.3, 0.5)
    drag(driver, *((a, b) if leftward else (b, a)))
    return wait_for(driver, lambda s: s["state"] == "idle" and s["pages"] == until_pages)


def swipes(checks, driver, folder, label, page):
    """From page `page` (shown): the forward swipe (right to left in an LTR book, left to
    right in an RTL one) shows page + 1, the backward swipe page again; a mostly vertical
    drag and a short one do not turn."""
    rtl = label == "rtl"
    swipe(driver, not rtl, str(page + 1))
    check_view(checks, driver, folder,
               f"{label} single after a {'left-to-right' if rtl else 'right-to-left'} swipe",
               [page + 1])
    swipe(driver, rtl, str(page))
    check_view(checks, driver, folder,
               f"{label} single after a {'right-to-left' if rtl else 'left-to-right'} swipe",
               [page])
    for name, start, end in [("a vertical drag", (0.6, 0.2), (0.4, 0.8)),
                             ("a short drag", (0.52, 0.5), (0.48, 0.5))]:
        drag(driver, start, end)
        time.sleep(0.6)
        s = state(driver)
        checks.add(f"{label} single: {name} does not turn",
                   s["state"] == "idle" and s["pages"] == str(page), str(s))


def single_pages(checks, driver, folder, label, forward, backward):
    s = open_book(driver, folder, SINGLE_VIEWPORT)
    checks.add(f"{label} single: layout", s["layout"] == "single", str(s))
    check_view(checks, driver, folder, f"{label} single start", [1])
    s = turn(driver, forward, "2")
    frames = int(s.get("frames") or 0)
    checks.add(f"{label} single: the turn drew sheet frames", frames >= 3, f"{frames} frames")
    check_view(checks, driver, folder, f"{label} single after forward key", [2])
    turn(driver, backward, "1")
    check_view(checks, driver, folder, f"{label} single after backward key", [1])
    edge = "left" if label == "rtl" else "right"
    driver.find_element(By.ID, edge).click()
    s = wait_for(driver, lambda s: s["state"] == "idle" and s["pages"] == "2")
    checks.add(f"{label} single: a click on the {edge} edge turns forward", s["pages"] == "2",
               str(s))
    swipes(checks, driver, folder, label, 2)


def spreads(checks, driver, folder, label, forward, backward):
    manifest = json.loads((folder / "flipbook.json").read_text())
    views = manifest["spreads"]
    s = open_book(driver, folder, SPREAD_VIEWPORT)
    checks.add(f"{label} spread: layout", s["layout"] == "spread", str(s))
    checks.add(f"{label} spread: at least three spreads", len(views) >= 3, f"{len(views)}")
    if len(views) < 3:
        return
    whole = next((v for v in views if v.get("left") and v.get("right")), None)
    if whole:
        gutter(checks, folder, f"{label} spread", whole)
    check_spread(checks, driver, folder, f"{label} spread start", views[0])
    s = turn(driver, forward, sides(views[1]))
    frames = int(s.get("frames") or 0)
    checks.add(f"{label} spread: the turn drew sheet frames", frames >= 3, f"{frames} frames")
    check_spread(checks, driver, folder, f"{label} spread after forward key", views[1])
    turn(driver, forward, sides(views[2]))
    check_spread(checks, driver, folder, f"{label} spread after a second forward key", views[2])
    turn(driver, backward, sides(views[1]))
    check_spread(checks, driver, folder, f"{label} spread after the backward key", views[1])


def network(checks, driver, folder, label):
    root = folder.resolve().as_uri() + "/"
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    outside = [u for u in urls if not u.startswith(root)]
    checks.add(f"{label}: requests made", len(urls) >= 5, f"{len(urls)} requests")
    checks.add(f"{label}: no request left the folder", not outside, ", ".join(outside[:5]))


def make(quire, book, folder):
    r = subprocess.run([quire, "flipbook", str(book), "-o", str(folder), "--size",
                        f"{PAGE[0]}x{PAGE[1]}", "--frames", "8"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"quire flipbook {book} exited {r.returncode}: {r.stderr.strip()}")


def preview(driver, quire, book, work, out):
    """The README's picture: the LTR book's flipbook in a landscape window, its first spread
    turning to the second (a 24-frame turn at 30 fps, caught about 45 % of the way)."""
    folder = work / "preview"
    r = subprocess.run([quire, "flipbook", str(book), "-o", str(folder), "--size",
                        f"{PAGE[0]}x{PAGE[1]}", "--pages", "1-5", "--frames", "24"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"quire flipbook {book} exited {r.returncode}: {r.stderr.strip()}")
    open_book(driver, folder, SPREAD_VIEWPORT)
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    time.sleep(0.35)
    Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB").save(out, optimize=True)
    print(f"preview written to {out}")


def run(args, work):
    driver_path = chromedriver_path(args.chromedriver)
    if not driver_path or not (shutil.which("chromium") or shutil.which("google-chrome")):
        print("flipbook-browser-test: chromium or chromedriver is not installed", file=sys.stderr)
        return 2, None
    checks = Checks()
    driver = browser(driver_path)
    try:
        if args.preview:
            preview(driver, args.quire, Path(args.ltr), work, args.preview)
            return 0, None
        books = [("ltr", args.ltr), ("rtl", args.rtl)] + ([("fixed", args.fixed)] if args.fixed else [])
        for label, book in books:
            folder = work / label
            make(args.quire, Path(book), folder)
            rtl = label == "rtl"
            fwd, back = (Keys.ARROW_LEFT, Keys.ARROW_RIGHT) if rtl else (Keys.ARROW_RIGHT, Keys.ARROW_LEFT)
            driver.get("about:blank")
            driver.get_log("performance")  # drop what came before this book
            single_pages(checks, driver, folder, label, fwd, back)
            spreads(checks, driver, folder, label, fwd, back)
            network(checks, driver, folder, label)
    finally:
        driver.quit()
    return (0 if checks.ok else 1), checks


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quire", required=True)
    p.add_argument("--ltr", required=True)
    p.add_argument("--rtl", required=True)
    p.add_argument("--fixed", help="a pre-paginated book, played as the others")
    p.add_argument("--json")
    p.add_argument("--keep", help="write the flipbooks here and keep them")
    p.add_argument("--chromedriver")
    p.add_argument("--preview", help="only write the README's flipbook picture to this PNG")
    args = p.parse_args(argv)
    if args.keep:
        work = Path(args.keep)
        work.mkdir(parents=True, exist_ok=True)
        code, checks = run(args, work)
    else:
        with tempfile.TemporaryDirectory(prefix="quire-flipbook-") as tmp:
            code, checks = run(args, Path(tmp))
    if args.json and checks is not None:
        Path(args.json).write_text(json.dumps({"ok": checks.ok, "checks": checks.items}, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main())
