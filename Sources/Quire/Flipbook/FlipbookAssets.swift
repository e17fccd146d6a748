// The flipbook's player: index.html, flipbook.css and flipbook.js, kept here as Swift strings
// so the `quire` binary writes them wherever it runs (a resource bundle would have to travel
// with the binary). No framework, no network: the page loads book.js (the manifest) and
// flipbook.js by relative <script> tags, which browsers allow from file://.
//
// The player holds a window of images like QuireCache's PageCache: the pages of the
// previous, current and next view and the sheets of the turns into and out of the current
// view; the rest are dropped. A turn draws frame after frame on a canvas over the pages with
// requestAnimationFrame: elapsed time → the manifest's easing samples → progress → the frame
// at that progress (first and last frames are the page images). For tests it keeps its state
// on <body>: data-state (loading, idle, turning), data-page (the first page of the view in
// reading order), data-pages (the pages shown, left to right, 0 for blank paper), data-spread
// (the number of the spread shown, spread view only), data-layout (single, spread) and
// data-frames (frames drawn by the last turn).
//
// Spread view follows the manifest's `spreads` (the book's pairing, as `render --spreads`
// and `flip --spread` pair pages): the player never pairs pages itself.

/// The player's files.
enum FlipbookAssets {
  /// index.html, flipbook.css and flipbook.js, in that order; `title` and `language` are
  /// escaped into index.html (the player also reads them from book.js).
  static func files(title: String, language: String?) -> [(String, String)] {
    [
      ("index.html", indexHTML(title: escaped(title), language: escaped(language ?? "und"))),
      ("flipbook.css", css),
      ("flipbook.js", script),
    ]
  }

  /// `text` safe inside HTML text and double-quoted attributes.
  static func escaped(_ text: String) -> String {
    var s = ""
    for c in text.prefix(500) {
      switch c {
      case "&": s += "&amp;"
      case "<": s += "&lt;"
      case ">": s += "&gt;"
      case "\"": s += "&quot;"
      default: s.append(c)
      }
    }
    return s
  }

  static func indexHTML(title: String, language: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="\(language)">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(title)</title>
    <link rel="stylesheet" href="flipbook.css">
    </head>
    <body data-state="loading">
    <header>
    <h1 id="title">\(title)</h1>
    <p id="indicator" aria-live="polite"></p>
    </header>
    <main id="stage" tabindex="0" aria-label="Book pages: arrow keys, a click on the edges or a swipe turn the pages">
    <div id="book"><div id="pages"></div><canvas id="turn" hidden aria-hidden="true"></canvas></div>
    <button id="left" class="edge left" type="button"></button>
    <button id="right" class="edge right" type="button"></button>
    </main>
    <noscript><p>The flipbook needs JavaScript; its pages are the page-*.png files of this folder.</p></noscript>
    <script src="book.js"></script>
    <script src="flipbook.js"></script>
    </body>
    </html>

    """
  }

  static let css = """
    html, body { margin: 0; height: 100%; background: #3b3b3b; color: #eee; }
    body { display: flex; flex-direction: column; font: 15px/1.3 sans-serif; }
    header { display: flex; align-items: baseline; justify-content: space-between;
      box-sizing: border-box; height: 32px; padding: 6px 12px; }
    h1 { margin: 0; font-size: 16px; font-weight: 600; white-space: nowrap; overflow: hidden;
      text-overflow: ellipsis; }
    #indicator { margin: 0 0 0 12px; white-space: nowrap; }
    #stage { position: relative; flex: 1; min-height: 0; display: flex; align-items: center;
      justify-content: center; overflow: hidden; outline: none; }
    #stage:focus-visible { box-shadow: inset 0 0 0 2px #8ab4f8; }
    #book { position: relative; box-shadow: 0 2px 14px rgba(0, 0, 0, 0.5); }
    #pages { display: flex; }
    #pages img, #pages .blank { display: block; background: #fff; }
    #turn { position: absolute; left: 0; top: 0; }
    .edge { position: absolute; top: 0; bottom: 0; width: 20%; border: 0; padding: 0;
      background: transparent; cursor: pointer; }
    .edge.left { left: 0; }
    .edge.right { right: 0; }
    .edge:focus-visible { outline: 2px solid #8ab4f8; outline-offset: -4px; }

    """

  static let script = #"""
    // The Quire flipbook player (written by `quire flipbook`; see FlipbookAssets.swift).
    (function () {
      "use strict";
      var book = window.QUIRE_FLIPBOOK;
      var body = document.body;
      if (!book || !book.pages.length) { body.dataset.state = "error"; return; }
      var rtl = book.book.direction === "rtl";
      var W = book.width, H = book.height, turn = book.turn;
      function el(id) { return document.getElementById(id); }
      var stage = el("stage"), pagesBox = el("pages"), canvas = el("turn");
      var ctx = canvas.getContext("2d");
      var wide = window.matchMedia("(orientation: landscape)");
      var view = { spread: false, index: 0 };
      var busy = false, queued = 0, cache = new Map();
      var spreads = book.spreads || [], byNumber = new Map();
      book.pages.forEach(function (p, i) { byNumber.set(p.number, i); });
      function page(n) { return n == null || !byNumber.has(n) ? null : book.pages[byNumber.get(n)]; }

      function spreadWanted() { return wide.matches && !!turn.spread && spreads.length > 1; }
      function viewCount() { return view.spread ? spreads.length : book.pages.length; }
      // The pages of view i left to right on screen (null: blank paper); a spread's sides are
      // the manifest's (an RTL book has its earlier page on the right).
      function shown(i) {
        if (!view.spread) return [book.pages[i]];
        return [page(spreads[i].left), page(spreads[i].right)];
      }
      // The same in reading order, blank sides left out.
      function viewPages(i) {
        var p = shown(i).filter(Boolean);
        return rtl ? p.reverse() : p;
      }
      // The view showing page index k (in book.pages) in the current layout.
      function viewOf(k) {
        if (!view.spread) return k;
        var n = book.pages[k].number;
        var i = spreads.findIndex(function (s) { return s.left === n || s.right === n; });
        return Math.max(0, i);
      }
      // The still image of spread view i (both pages and the gutter shadow), or null.
      function still(i) { return view.spread ? spreads[i] || null : null; }
      // The turn from view i to view i + 1.
      function turnFrom(i) { return i < 0 ? null : (view.spread ? book.spreadTurns : book.turns)[i]; }
      function image(src) {
        var img = cache.get(src);
        if (!img) {
          img = new Image();
          img.src = src;
          cache.set(src, img);
          // Decode ahead of the turn: a sheet of many frames takes a while.
          if (img.decode) img.decode().catch(function () {});
        }
        return img;
      }
      // Previous, current and next view's pages and the turns around the current view.
      function preload() {
        var keep = new Set();
        for (var i = view.index - 1; i <= view.index + 1; i++) {
          if (i < 0 || i >= viewCount()) continue;
          if (still(i)) { keep.add(still(i).file); continue; }
          viewPages(i).forEach(function (p) { if (p) keep.add(p.file); });
        }
        [turnFrom(view.index - 1), turnFrom(view.index)].forEach(function (t) {
          if (t) keep.add(t.file);
        });
        keep.forEach(image);
        Array.from(cache.keys()).forEach(function (k) { if (!keep.has(k)) cache.delete(k); });
      }
      function label(i) {
        return viewPages(i).filter(Boolean).map(function (p) { return p.number; }).join("–");
      }
      function render() {
        var cols = view.spread ? 2 : 1;
        var s = Math.min(1, stage.clientWidth / (cols * W), stage.clientHeight / H);
        var w = Math.max(1, Math.floor(W * s)), h = Math.max(1, Math.floor(H * s));
        pagesBox.textContent = "";
        var s = still(view.index);
        if (s) {
          var img = document.createElement("img");
          img.src = s.file;
          img.alt = "Pages " + label(view.index);
          img.style.width = cols * w + "px";
          img.style.height = h + "px";
          pagesBox.appendChild(img);
        }
        if (!s) shown(view.index).forEach(function (p) {
          var node = document.createElement(p ? "img" : "div");
          if (p) { node.src = p.file; node.alt = "Page " + p.number; }
          else { node.className = "blank"; node.setAttribute("aria-hidden", "true"); }
          node.style.width = w + "px";
          node.style.height = h + "px";
          pagesBox.appendChild(node);
        });
        canvas.style.width = cols * w + "px";
        canvas.style.height = h + "px";
        var first = viewPages(view.index)[0].number;
        if (view.spread) body.dataset.spread = spreads[view.index].number;
        else delete body.dataset.spread;
        el("indicator").textContent = (view.spread ? "Pages " : "Page ") + label(view.index) +
          " (" + (view.index + 1) + " of " + viewCount() + ")";
        body.dataset.page = first;
        body.dataset.pages = shown(view.index).map(function (p) { return p ? p.number : 0; }).join(",");
        body.dataset.layout = view.spread ? "spread" : "single";
        if (history.replaceState) history.replaceState(null, "", "#page=" + first);
        preload();
      }
      function ease(x) {
        var e = turn.easing, k = x * (e.length - 1), i = Math.min(e.length - 2, Math.floor(k));
        return e[i] + (e[i + 1] - e[i]) * (k - i);
      }
      function drawView(i) {
        ctx.fillStyle = "#fff";
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        var s = still(i), simg = s && image(s.file);
        if (simg && simg.complete && simg.naturalWidth) { ctx.drawImage(simg, 0, 0, 2 * W, H); return; }
        shown(i).forEach(function (p, k) {
          var img = p && image(p.file);
          if (img && img.complete && img.naturalWidth) ctx.drawImage(img, k * W, 0, W, H);
        });
      }
      function finish(target, frames) {
        view.index = target;
        render();
        var imgs = Array.from(pagesBox.querySelectorAll("img"));
        Promise.all(imgs.map(function (i) { return i.decode ? i.decode().catch(function () {}) : 0; }))
          .then(function () {
            canvas.hidden = true;
            busy = false;
            body.dataset.frames = frames;
            body.dataset.state = "idle";
            if (queued) { var q = queued; queued = 0; go(q); }
          });
      }
      // Plays the turn `t` (view a → a + 1) forward (next) or backward (prev).
      function play(t, sheet, a, forward) {
        var g = view.spread ? turn.spread : turn.single, n = turn.frames;
        var ms = (n - 1) / turn.fps * 1000, start = null, last = -1, frames = 0;
        canvas.width = g.frameWidth;
        canvas.height = g.frameHeight;
        function draw(f) {
          if (f === last) return;
          last = f;
          frames++;
          if (f <= 0 || f >= n - 1) { drawView(f <= 0 ? a : a + 1); return; }
          var c = f - 1, fw = g.frameWidth, fh = g.frameHeight;
          ctx.drawImage(sheet, (c % g.columns) * fw, Math.floor(c / g.columns) * fh, fw, fh,
            0, 0, fw, fh);
        }
        function step(now) {
          if (start === null) start = now;
          var x = ms > 0 ? Math.min(1, (now - start) / ms) : 1;
          var p = forward ? ease(x) : 1 - ease(x);
          draw(Math.max(0, Math.min(n - 1, Math.round(p * (n - 1)))));
          if (x < 1) requestAnimationFrame(step); else finish(forward ? a + 1 : a, frames);
        }
        draw(forward ? 0 : n - 1);
        canvas.hidden = false;
        requestAnimationFrame(step);
      }
      function go(step) {
        if (busy) { queued = step; return; }
        var target = view.index + step;
        if (target < 0 || target >= viewCount()) return;
        var a = Math.min(view.index, target), t = turnFrom(a);
        if (!t) { view.index = target; render(); return; }
        busy = true;
        body.dataset.state = "turning";
        var sheet = image(t.file);
        var ready = sheet.decode ? sheet.decode() : Promise.resolve();
        ready.then(function () { play(t, sheet, a, step > 0); },
          function () { finish(target, 0); });
      }
      function jump(i) {
        if (busy || i === view.index) return;
        view.index = Math.max(0, Math.min(viewCount() - 1, i));
        render();
      }
      function next() { go(1); }
      function prev() { go(-1); }
      function relayout() {
        var spread = spreadWanted();
        if (spread !== view.spread && !busy) {
          var k = byNumber.get(viewPages(view.index)[0].number);
          view.spread = spread;
          view.index = viewOf(k);
        }
        render();
      }

      el("left").setAttribute("aria-label", rtl ? "Next page" : "Previous page");
      el("right").setAttribute("aria-label", rtl ? "Previous page" : "Next page");
      el("left").addEventListener("click", rtl ? next : prev);
      el("right").addEventListener("click", rtl ? prev : next);
      document.addEventListener("keydown", function (e) {
        if (e.altKey || e.ctrlKey || e.metaKey) return;
        var k = e.key;
        if (k === "ArrowRight") { if (rtl) prev(); else next(); }
        else if (k === "ArrowLeft") { if (rtl) next(); else prev(); }
        else if (k === "PageDown" || k === " ") next();
        else if (k === "PageUp") prev();
        else if (k === "Home") jump(0);
        else if (k === "End") jump(viewCount() - 1);
        else return;
        e.preventDefault();
      });
      var touch = null;
      stage.addEventListener("touchstart", function (e) {
        touch = e.touches.length === 1 ? { x: e.touches[0].clientX, y: e.touches[0].clientY } : null;
      }, { passive: true });
      stage.addEventListener("touchend", function (e) {
        if (!touch) return;
        var c = e.changedTouches[0], dx = c.clientX - touch.x, dy = c.clientY - touch.y;
        touch = null;
        if (Math.abs(dx) < 40 || Math.abs(dx) < Math.abs(dy)) return;
        if ((dx < 0) !== rtl) next(); else prev();
      });
      wide.addEventListener("change", relayout);
      window.addEventListener("resize", function () { if (!busy) relayout(); });

      document.title = book.book.title;
      el("title").textContent = book.book.title;
      view.spread = spreadWanted();
      var m = /^#page=(\d+)$/.exec(location.hash);
      var start = m && byNumber.has(+m[1]) ? byNumber.get(+m[1]) : 0;
      view.index = viewOf(start);
      render();
      stage.focus();
      body.dataset.state = "idle";
    })();

    """#
}
