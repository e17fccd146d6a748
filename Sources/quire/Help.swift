// Usage text for `quire --help` and `quire help COMMAND`.

let overview = """
  quire — books to page images and page-turn animations

  usage: quire COMMAND [options]

  commands:
    render    BOOK -o DIR      page images (PNG) and manifest.json
    paginate  BOOK             layout only: page count and page map
    info      BOOK             metadata, spine, TOC, fonts, images, warnings
    bench     BOOK             stage timings, pages/s, peak memory; --reading simulates a reader
    flip      BOOK --page N -o OUT   a page-turn animation (curl, leaves, fold, hard, slide, fade, push)
              BOOK --timeline FILE -o OUT   a chain: open, turns, holds, close as one animation
    open      BOOK -o OUT      the book opening from a shelf (iBooks style); --close reverses
    shelf     BOOK… -o OUT     covers in a grid animating to a scattered layout
    batch     BOOK…|DIR|LIST -o ROOT   render many books, one folder each, resumable
    flipbook  BOOK -o DIR      a static HTML flipbook that plays in a browser, offline
    help      COMMAND          details of one command

  BOOK: .epub, an unpacked EPUB folder, .xhtml/.html, or plain text (any common encoding).
  Exit codes: 0 ok, 64 usage, 65 bad input data, 66 cannot open input, 73 cannot create output
  (also: another quire process is writing into the folder), 70 internal error; 128+N after
  signal N (SIGINT, SIGTERM, SIGHUP: temporary files are removed first). Errors are one line
  on stderr.
  """

let layoutHelp = """
  layout options:
    --size WxH|native          page size in pixels, sides 16…8192, at most 16 Mpx
                               [600x800]; native: fixed-layout pages at their viewport
    --fit contain|cover        fixed-layout pages into the page: whole and letterboxed,
                               or filling it [contain]
    --font-size PX             body text size, 4…200; 3 lines must fit a page [16]
    --margins T,R,B,L | PX     page margins in pixels [proportional to the page]
    --line-height X            line height as a multiple of the font size, 0.5…5 [1.4]
    --font FAMILY|PATH         body font: a family of fonts/ or a font file
    --align justify|start      [justify]
    --hyphenate auto|off       [auto]
    --linebreak optimal|greedy [optimal]
    --publisher-styles on|off  use the book's CSS and fonts [on]
    --lang TAG                 language when the book names none (hyphenation)
    --folio                    a running footer with the page number
    --no-system-fonts          never fall back to the system's fonts (fontconfig) for
                               characters the vendored and book fonts lack
    --footnotes foot|end|inline  notes at the foot of the page that refers to them, at
                               the chapter's end, or where the book put them [foot]
    --cover auto|off           the package's cover image as page 1 when no spine
                               document shows it [auto]
  input options:
    --encoding NAME            plain text encoding (UTF-8, UTF-16LE, UTF-16BE, GB18030…)
    --strict                   treat warnings as errors (exit 65)
  """

let commandHelp: [String: String] = [
  "render": """
  quire render BOOK -o DIR [layout options] [--color gray|rgb] [--pages 1-10,15]
               [--threads N] [--boxes] [--fsync] [--cache DIR|off] [--spreads]
               [--png-compression fast|small]

  Writes DIR/page-0001.png … (exactly --size) and DIR/manifest.json (format quire-pages/2:
  book, layout, pageCount, toc, warnings, pages with spine/href/start/end Locations; with
  --boxes also each page's text lines, images and text blocks' content boxes). Files are
  written atomically. A render owns DIR while it runs (DIR/.quire-lock; a second render
  into DIR exits 73); it removes the old manifest.json first and page files it did not
  write at the end, and writes its manifest last (flushed to the disk with the folder):
  DIR holds one render's complete output exactly when it has a manifest.json.
    --color gray|rgb   [gray]
    --pages LIST       pages to render, 1-based ranges [all]
    --threads N        worker threads, 1…256, fewer when the pages of all workers would
                       need more than 512 MB (a note says so) [all cores]
    --boxes            add line, image and block boxes to the manifest
    --fsync            flush the pages, the manifest and the folder to the disk (without
                       it files are renamed into place whole, not flushed)
    --cache DIR|off    the persisted layout cache [$XDG_CACHE_HOME/quire, else
                       ~/.cache/quire]: up to 64 pages of a book seen before are drawn
                       from their chapters alone; every complete layout is stored (256 MB,
                       least recently used out)
    --spreads          also two-page spreads DIR/spread-0001.png … (page-progression and
                       page-spread-* decide the pairs; manifest "spreads")
    --png-compression fast|small
                       gray page files by igzip (fast: ~3x faster encoding, ~7 % larger)
                       or libdeflate (small; colour pages always); the same pixels [fast]

  """ + layoutHelp,
  "batch": """
  quire batch BOOK…|DIR|LIST -o ROOT [render options] [--jobs N] [--force]

  Renders every book into ROOT/NAME/ (NAME from the file name, "-2", "-3"… when names
  collide) as `quire render` would, each in a child process of its own: a book that fails
  or crashes is reported and the batch goes on. A DIR is searched (recursively) for .epub,
  .xhtml, .html, .htm, .txt and unpacked EPUB folders; a LIST (a file ending in .list)
  names one path per line (relative to the list; # comments). A book whose folder has a
  batch-stamp.json with the same file contents (SHA-1), options and engine version, and a
  manifest.json, is skipped: run the same command again to resume. ROOT/summary.json
  (format quire-batch/1) lists per book: input, output, status (converted, skipped,
  failed), exitCode, pages, seconds, warnings, error. Exit 65 when any book failed.
    --jobs N           books rendered at the same time, 1…256 [all cores]; each gets
                       cores/N threads unless --threads is given
    --force            render books whose stamp matches too

  """ + layoutHelp,
  "paginate": """
  quire paginate BOOK [layout options] [--json] [--stats] [--cache DIR|off]

  Lays the book out without drawing: page count and page map (start/end Locations per
  page). --json prints {pageCount, layout, pages}. --stats adds typographic quality
  numbers (line adjustment ratios, hyphenation, widows/orphans, kinsoku).
  A book seen before (same bytes, options, fonts, engine) is answered from the layout
  cache (--cache, as for render; --stats and --strict lay the book out again).

  """ + layoutHelp,
  "info": """
  quire info BOOK [--json] [--encoding NAME] [--strict]

  Metadata, spine (href, media type, linear, size), TOC tree, fonts (embedded; whether
  obfuscation was undone), images, language, direction and warnings.
  """,
  "bench": """
  quire bench BOOK [layout options] [--repeat N] [--threads N] [--json] [--reading [--turns N]]
              [--cache DIR|off]

  Times each stage — ingest, layout, raster, encode, total — over all pages without
  writing files; reports pages/s and peak memory. --reading reads through the book with
  the page cache (forward, with some backward turns) and reports turns, hits, p50/p99
  turn times and the cold render time.
  With the layout cache (unless --cache off): cold paginate (layout, entry stored) against
  cached paginate (page map read back) and a cached page (its chapter laid out, drawn and
  encoded; median of the first, middle and last page).

  """ + layoutHelp,
  "flip": """
  quire flip BOOK --page N -o OUT [--style curl|leaves|fold|hard|slide|fade|push]
             [--direction next|prev] [--rtl] [--corner top|bottom|middle]
             [--frames N | --duration S] [--fps F] [--timing NAME|cubic-bezier(a,b,c,d)]
             [--spread] [--back mirrored|blank|next] [layout options]
             [--from P --to Q | --at P] [--cancel]

  A page turn from page N to N+1 (or N−1 with --direction prev). Frame 0 is page N exactly,
  the last frame the page turned to. Per-frame progress is the timing curve's value (an
  overshooting cubic-bezier is kept where the style can show it: slide, push); prev plays
  the forward geometry at 1 − curve(t), so ease-in stays ease-in. OUT: a folder
  (frame-0001.png … + frames.json), *.png/*.apng (APNG), *.webp (animated WebP),
  *.mp4/*.webm (needs ffmpeg).
    --style      [curl]           --corner   [bottom]     --back  [mirrored]
    --frames     2…10000 [30]     --fps      1…240 [30]   --timing [easeInEaseOut]
    --duration   0.05…600 s: round(S × F) frames, each 1/F s (frames.json "duration")
    --rtl        right-to-left geometry [from the book's page-progression direction]
    --from P --to Q   part of the turn, progress 0…1     --at P   a still (one frame)
    --cancel     the turn goes to --to [0.5] and falls back (a released drag)
    --spread     the spread holding page N to the next (or previous) spread, as render
                 --spreads pairs them (page 1 alone, page-spread-*, RTL): two pages side
                 by side, darkened softly toward the spine; frame 0 equals that spread image

  quire flip BOOK --timeline FILE -o OUT [--page N] [--fps F] [--rtl|--ltr] [layout options]

  A chain played as one animation: open → turn → turn → close. FILE is JSON:
    {"segments": [{"kind": "open", "frames": 24},
                  {"kind": "turn", "style": "curl", "duration": 0.8, "timing": "easeOut"},
                  {"kind": "hold", "frames": 10},
                  {"kind": "turn", "direction": "prev", "corner": "top"},
                  {"kind": "close"}],
     "shelf": [x, y, width, height]}
  kind open|turn|hold|close; each segment frames (≥ 2, both ends) or duration, timing; a
  turn also style, direction, corner, back. Consecutive segments share their boundary frame
  (written once), so a chain has Σ frames − (segments − 1) frames (≤ 10000, ≤ 1000
  segments). Without open/close the frames are page-sized and the first turn starts on
  --page [1]; with them the canvas is --size and the book rests on a shelf as in quire open
  (an opening ends on the page under the cover). frames.json adds "segments" (kind, style,
  firstFrame, lastFrame, fromPage, toPage) and each frame's "segment" (its t and progress
  are the segment's). A timeline that cannot play exits 65 naming the segment.

  """ + layoutHelp,
  "flipbook": """
  quire flipbook BOOK -o DIR [--pages A-B] [--style curl|leaves|fold|hard|slide|fade|push]
                 [--corner top|bottom|middle] [--back mirrored|blank|next]
                 [--frames N | --duration S] [--fps F] [--timing NAME|cubic-bezier(a,b,c,d)]
                 [--color gray|rgb] [--no-spreads] [--sheet-format png|webp] [--threads N]
                 [layout options]

  A folder that plays the book in any browser from file://, with no server and no network:
  index.html, flipbook.css, flipbook.js, book.js (the manifest as a script), the pages
  (page-0001.png …, as `quire render` draws them), per page N the turn to N+1 as a sprite
  sheet (turn-0001.png …), per spread of the book (paired and numbered as render --spreads
  does) the spread at rest (spread-0001.png …) and the turn to the next (spread-0001-turn.png
  …; with --sheet-format webp the sheets are turn-0001.webp and spread-0001.webp), and
  flipbook.json (format quire-flipbook/1) written last. Open DIR/index.html: arrow keys, a
  click or tap on the page edges, or a swipe turn the pages with the pre-rendered animation;
  an RTL book turns the other way; a landscape window shows spreads, a portrait one single
  pages. Prints the page and turn counts and the folder's total size.
    --pages A-B        one range of pages, at most 2000 [all]
    --frames           3…10000 [16]: the sheet of one turn holds at most 32 Mpx
    --fps              1…240 [30]     --timing [easeInEaseOut]    --style [curl]
    --color gray|rgb   page images [rgb]
    --no-spreads       single-page turns only (about half the size)
    --sheet-format     png: exact, fast to write [png]; webp: lossless WebP, files about
                       a quarter smaller, written in ~20x the time

  """ + layoutHelp,
  "open": """
  quire open BOOK -o OUT [--canvas WxH] [--from X,Y,W,H] [--close]
             [--frames N | --duration S] [--fps F] [--timing NAME]

  iBooks-style opening: the book (at its cover's aspect on any canvas) moves and scales from
  its place on a bookshelf (--from, the shelf cell it stands in) to the largest size that
  fits the canvas, while the cover swings open about its spine edge (the right edge for a
  right-to-left book) in perspective, revealing the page after the cover (the title page)
  from the start; the shelf stays behind. --close is the same frames in reverse order.
  """,
  "shelf": """
  quire shelf BOOK… -o OUT [--layout grid|scatter|FILE] [--to grid|scatter] [--toggle]
              [--front K] [--progress P,…] [--canvas WxH] [--frames N | --duration S] [--fps F]

  The covers of the books (drop shadows) move between a grid (four a row) and a scattered
  pile centred on the canvas. --layout: where they start [grid]; FILE starts them scattered
  at its placements: JSON [{"x":…,"y":…,"angle":deg}] or the bookshelf app's plist (nested
  dictionaries, per book a center "{x, y}", an angle in degrees, a size "{w, h}").
  --to: where they go [the other one]; --toggle: there and back. --front K brings book K to
  the front (it lifts above the others and takes the first place); --progress draws ring
  badges with the percentage.
  """,
]
