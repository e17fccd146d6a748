// DisplayListFile: a chapter's pages as the painter reads them, kept beside a layout cache
// entry so that a later `render --pages N` draws page N without laying its chapter out again.
//
// Why: with a filled layout cache a cached render still laid out the whole chapter holding
// page N (~53 M of its ~200 M instructions for moby-dick). Resuming from a page checkpoint
// (CachedLayout.swift) shortens a first render where the flow has a compact state, but not
// every page has one (floats, tables, column sets and notes carry over from the pages
// before), and any layout costs more than reading its result: so the result is kept. The
// first cached render of a chapter lays out its pages (all of them, or from a checkpoint),
// checks them against the entry, and writes their display lists here (lazily: a chapter no
// cached render asked for costs nothing); the next one decodes page N's.
//
// What is kept per page is what `PageRenderer` reads — the display list (glyph runs, fills,
// images, box paints, filled paths, transformed groups), the canvas background, the
// rendition (a pre-paginated page's viewport) and the writing mode — plus the page's number,
// spine and Locations, which must equal the entry's index before a page is used. Glyph
// runs' `FontID`s index the typesetter's font table of the run that wrote the file, whose
// face names are stored and must equal this run's (the table is made from the same chapter
// and options, but the check is cheap). Line boxes, block boxes and math are not kept: the
// manifest entries already hold what the manifest needs.
//
// A file holds every page of its chapter when the chapter was laid out whole, or the pages
// renders laid out from checkpoints (CachedLayout.swift), each with its number: a later
// render uses the file when it holds every page asked for.
//
// File (one per layout key and chapter, `<key>-<spine>.qdl` in the cache folder): a sealed
// file's header (SealedFile.swift: magic "QUIREDL\n", version, CRC-32, payload length), then the
// payload in little-endian fixed-width fields: the key digest, the chapter's spine and first
// page, its href, the font table's face names, the number of pages kept, then per page its
// fields and items (see `Writer.page` and `Reader.page`). Doubles and floats are stored as
// their bit patterns, so a decoded page equals the laid-out one exactly and draws the same pixels.
// Every count is checked against the bytes left and transformed groups nest at most
// `maxDepth` deep, so a hostile file costs at most its length; anything that does not
// check out is a miss and the chapter is laid out (and the file written) again.
//
// Measured (Benchmarks/layout-cache.md, session 9; moby-dick at 600x800): ~18 KB
// a page (13 MB for all 729 pages, against the entry's 251 KB), so the files are written
// only for chapters a cached render asked for; a chapter's file is read, decoded and checked
// in ~1 M instructions where laying the chapter out took ~52 M, and writing it adds ~2.5 M
// to that chapter's first cached render. Rejected: JSON (Foundation's decoder spends ~500
// instructions a byte) and, for now, deflating the payload (libdeflate would halve the size
// for a few hundred thousand instructions a read; the size bound already evicts).

import Foundation
import QuireCore
import QuireIngest
import QuireTypeset

/// A chapter's pages as the painter reads them (see the essay above).
struct ChapterDrawings: Equatable {
  var key: String
  var spine: Int
  /// The chapter's first page (the pages kept may start later).
  var firstPage: Int
  var href: String
  /// The face names of the font table the glyph runs' `FontID`s index.
  var fonts: [String]
  /// All of the chapter's pages, or some of them, ascending by number.
  var pages: [Page]

  static func == (a: ChapterDrawings, b: ChapterDrawings) -> Bool {
    a.key == b.key && a.spine == b.spine && a.firstPage == b.firstPage && a.href == b.href
      && a.fonts == b.fonts && a.pages.count == b.pages.count
      && zip(a.pages, b.pages).allSatisfy(DisplayListFile.samePainting)
  }
}

/// The display-list file's format.
enum DisplayListFile {
  /// The header's kind (SealedFile.swift).
  static let sealed = SealedFile(magic: Array("QUIREDL\n".utf8), version: 1)
  static let headerSize = SealedFile.headerSize
  /// The file name extension.
  static let suffix = ".qdl"
  /// The deepest nesting of transformed groups read.
  static let maxDepth = 32

  /// Whether two pages have the same number, source and painting (what the file keeps).
  static func samePainting(_ a: Page, _ b: Page) -> Bool {
    a.number == b.number && a.spine == b.spine && a.href == b.href && a.start == b.start
      && a.end == b.end && a.items == b.items && a.background == b.background
      && a.rendition == b.rendition && a.writingMode == b.writingMode
  }

  /// The file's bytes, nil when a page does not encode.
  static func encode(_ drawings: ChapterDrawings) -> [UInt8]? {
    var w = Writer()
    w.string(drawings.key)
    w.int(drawings.spine)
    w.int(drawings.firstPage)
    w.string(drawings.href)
    w.int(drawings.fonts.count)
    for name in drawings.fonts { w.string(name) }
    w.int(drawings.pages.count)
    for page in drawings.pages { w.page(page) }
    if w.failed { return nil }
    return sealed.seal(w.bytes)
  }

  /// The drawings in `bytes`, nil unless the header, checksum and every field check out.
  static func decode(_ bytes: [UInt8]) -> ChapterDrawings? {
    guard sealed.isSealed(bytes) else { return nil }
    return bytes.withUnsafeBytes { raw -> ChapterDrawings? in
      var r = Reader(raw: raw, at: headerSize)
      guard let drawings = r.drawings(), r.at == raw.count else { return nil }
      return drawings
    }
  }
}

// MARK: - Writing

extension DisplayListFile {
  /// The payload being written.
  struct Writer {
    var bytes: [UInt8] = []
    /// Set when something could not be encoded (the file is then not written).
    var failed = false

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func int(_ v: Int) { withUnsafeBytes(of: Int64(v).littleEndian) { bytes += $0 } }
    mutating func double(_ v: Double) {
      withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 }
    }
    mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }
    mutating func string(_ s: String) {
      int(s.utf8.count)
      bytes += s.utf8
    }
    mutating func color(_ c: RGBA) { bytes += [c.r, c.g, c.b, c.a] }
    mutating func rect(_ r: Rect) {
      for v in [r.x, r.y, r.width, r.height] { double(v) }
    }

    mutating func page(_ p: Page) {
      int(p.number)
      int(p.spine)
      for v in [p.start.spine, p.start.offset, p.end.spine, p.end.offset] { int(v) }
      string(p.writingMode.rawValue)
      bool(p.background != nil)
      if let b = p.background { box(b) }
      bool(p.rendition != nil)
      if let r = p.rendition { rendition(r) }
      items(p.items)
    }

    mutating func rendition(_ r: PageRendition) {
      string(r.layout.rawValue)
      string(r.orientation.rawValue)
      string(r.spread.rawValue)
      string(r.pageSpread?.rawValue ?? "")
      bool(r.viewport != nil)
      if let v = r.viewport {
        double(v.width)
        double(v.height)
      }
    }

    mutating func items(_ list: [DisplayItem]) {
      int(list.count)
      for item in list { self.item(item) }
    }

    mutating func item(_ item: DisplayItem) {
      switch item {
      case .glyphs(let run):
        u8(0)
        glyphs(run)
      case .image(let placement):
        u8(1)
        string(placement.href)
        rect(placement.rect)
        bool(placement.clip != nil)
        if let clip = placement.clip { rect(clip) }
      case .fill(let r, let c):
        u8(2)
        rect(r)
        color(c)
      case .box(let b):
        u8(3)
        box(b)
      case .path(let path):
        u8(4)
        self.path(path)
      case .transformed(let group):
        u8(5)
        for v in [group.matrix.a, group.matrix.b, group.matrix.c, group.matrix.d] { double(v) }
        double(group.matrix.e)
        double(group.matrix.f)
        rect(group.bounds)
        items(group.items)
      }
    }

    mutating func glyphs(_ run: GlyphRun) {
      int(run.font)
      double(run.size)
      color(run.color)
      bool(run.syntheticBold)
      bool(run.syntheticItalic)
      u8(run.orientation.rawValue)
      int(run.glyphs.count)
      for g in run.glyphs { u32(g) }
      for x in run.x { u32(x.bitPattern) }
      for y in run.y { u32(y.bitPattern) }
    }

    mutating func box(_ b: BoxPaint) {
      rect(b.rect)
      for side in [b.top, b.right, b.bottom, b.left] {
        double(side.width)
        string(side.style.rawValue)
        color(side.color)
      }
      int(b.radii.count)
      for v in b.radii { double(v) }
      bool(b.backgroundColor != nil)
      if let c = b.backgroundColor { color(c) }
      // Background layers are rare and many-fielded: their own Codable JSON.
      var layers = Data()
      if !b.backgroundLayers.isEmpty {
        guard let json = try? JSONEncoder().encode(b.backgroundLayers) else {
          failed = true
          return
        }
        layers = json
      }
      int(layers.count)
      bytes += layers
      int(b.clippedItems)
    }

    mutating func path(_ p: FilledPath) {
      color(p.color)
      int(p.contours.count)
      for contour in p.contours {
        int(contour.count)
        for point in contour {
          double(point.x)
          double(point.y)
          bool(point.onCurve)
        }
      }
    }
  }
}

// MARK: - Reading

extension DisplayListFile {
  /// Bounds-checked reads of the payload: every read past the end, count larger than the
  /// bytes left could hold, or unknown enum value is nil.
  struct Reader {
    let raw: UnsafeRawBufferPointer
    var at: Int

    var left: Int { raw.count - at }

    mutating func u8() -> UInt8? {
      guard left >= 1 else { return nil }
      at += 1
      return raw[at - 1]
    }
    mutating func u32() -> UInt32? {
      guard left >= 4 else { return nil }
      at += 4
      return UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at - 4, as: UInt32.self))
    }
    mutating func int() -> Int? {
      guard left >= 8 else { return nil }
      at += 8
      return Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: at - 8, as: Int64.self)))
    }
    mutating func double() -> Double? {
      guard left >= 8 else { return nil }
      at += 8
      return Double(
        bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at - 8, as: UInt64.self))
      )
    }
    mutating func bool() -> Bool? {
      guard let b = u8(), b <= 1 else { return nil }
      return b == 1
    }
    /// A count of things at least `size` bytes each that the bytes left can hold.
    mutating func count(size: Int) -> Int? {
      guard let n = int(), n >= 0, n <= left / max(1, size) else { return nil }
      return n
    }
    mutating func bytes() -> UnsafeRawBufferPointer? {
      guard let n = count(size: 1) else { return nil }
      at += n
      return UnsafeRawBufferPointer(rebasing: raw[(at - n)..<at])
    }
    mutating func string() -> String? {
      guard let b = bytes() else { return nil }
      return String(validating: b, as: UTF8.self)
    }
    mutating func color() -> RGBA? {
      guard left >= 4 else { return nil }
      at += 4
      return RGBA(r: raw[at - 4], g: raw[at - 3], b: raw[at - 2], a: raw[at - 1])
    }
    mutating func rect() -> Rect? {
      guard let x = double(), let y = double(), let w = double(), let h = double() else {
        return nil
      }
      return Rect(x: x, y: y, width: w, height: h)
    }
    mutating func location() -> Location? {
      guard let spine = int(), let offset = int() else { return nil }
      return Location(spine: spine, offset: offset)
    }

    mutating func drawings() -> ChapterDrawings? {
      guard let key = string(), let spine = int(), let first = int(), let href = string(),
        let fontCount = count(size: 8)
      else { return nil }
      var fonts: [String] = []
      for _ in 0..<fontCount {
        guard let name = string() else { return nil }
        fonts.append(name)
      }
      guard let pageCount = count(size: 64) else { return nil }
      var pages: [Page] = []
      pages.reserveCapacity(pageCount)
      for _ in 0..<pageCount {
        guard let p = page(href: href) else { return nil }
        pages.append(p)
      }
      return ChapterDrawings(
        key: key, spine: spine, firstPage: first, href: href, fonts: fonts, pages: pages)
    }

    mutating func page(href: String) -> Page? {
      guard let number = int(), let spine = int(), let start = location(), let end = location(),
        let mode = string().flatMap(WritingMode.init(rawValue:)), let hasBackground = bool()
      else { return nil }
      var page = Page(number: number, spine: spine, href: href, start: start, end: end)
      page.writingMode = mode
      if hasBackground {
        guard let b = box() else { return nil }
        page.background = b
      }
      guard let hasRendition = bool() else { return nil }
      if hasRendition {
        guard let r = rendition() else { return nil }
        page.rendition = r
      }
      guard let items = items(depth: 0) else { return nil }
      page.items = items
      return page
    }

    mutating func rendition() -> PageRendition? {
      guard let layout = string().flatMap(RenditionLayout.init(rawValue:)),
        let orientation = string().flatMap(RenditionOrientation.init(rawValue:)),
        let spread = string().flatMap(RenditionSpread.init(rawValue:)),
        let side = string(), let hasViewport = bool()
      else { return nil }
      var r = PageRendition(layout: layout, orientation: orientation, spread: spread)
      if !side.isEmpty {
        guard let s = PageSpread(rawValue: side) else { return nil }
        r.pageSpread = s
      }
      if hasViewport {
        guard let w = double(), let h = double() else { return nil }
        r.viewport = ViewportSize(width: w, height: h)
      }
      return r
    }

    mutating func items(depth: Int) -> [DisplayItem]? {
      guard depth <= DisplayListFile.maxDepth, let n = count(size: 1) else { return nil }
      var list: [DisplayItem] = []
      list.reserveCapacity(n)
      for _ in 0..<n {
        guard let item = item(depth: depth) else { return nil }
        list.append(item)
      }
      return list
    }

    mutating func item(depth: Int) -> DisplayItem? {
      switch u8() {
      case 0: return glyphs().map(DisplayItem.glyphs)
      case 1:
        guard let href = string(), let r = rect(), let clipped = bool() else { return nil }
        var placement = ImagePlacement(href: href, rect: r)
        if clipped {
          guard let clip = rect() else { return nil }
          placement.clip = clip
        }
        return .image(placement)
      case 2:
        guard let r = rect(), let c = color() else { return nil }
        return .fill(r, c)
      case 3: return box().map(DisplayItem.box)
      case 4: return path().map(DisplayItem.path)
      case 5:
        guard let a = double(), let b = double(), let c = double(), let d = double(),
          let e = double(), let f = double(), let bounds = rect(),
          let inner = items(depth: depth + 1)
        else { return nil }
        let matrix = AffineMatrix(a: a, b: b, c: c, d: d, e: e, f: f)
        return .transformed(TransformedGroup(matrix: matrix, bounds: bounds, items: inner))
      default: return nil
      }
    }

    mutating func glyphs() -> GlyphRun? {
      guard let font = int(), let size = double(), let color = color(), let bold = bool(),
        let italic = bool(), let orientation = u8().flatMap(GlyphOrientation.init(rawValue:)),
        let n = count(size: 12)
      else { return nil }
      let glyphs = (0..<n).map { _ in u32()! }
      let x = (0..<n).map { _ in Float(bitPattern: u32()!) }
      let y = (0..<n).map { _ in Float(bitPattern: u32()!) }
      var run = GlyphRun(
        font: font, size: size, color: color, glyphs: glyphs, x: x, y: y, syntheticBold: bold,
        syntheticItalic: italic)
      run.orientation = orientation
      return run
    }

    mutating func box() -> BoxPaint? {
      guard let r = rect() else { return nil }
      var sides: [PaintedBorderSide] = []
      for _ in 0..<4 {
        guard let width = double(), let style = string().flatMap(BorderStyle.init(rawValue:)),
          let c = color()
        else { return nil }
        sides.append(PaintedBorderSide(width: width, style: style, color: c))
      }
      guard let radiusCount = count(size: 8) else { return nil }
      let radii = (0..<radiusCount).map { _ in double()! }
      var paint = BoxPaint(
        rect: r, top: sides[0], right: sides[1], bottom: sides[2], left: sides[3], radii: radii)
      guard let hasColor = bool() else { return nil }
      if hasColor {
        guard let c = color() else { return nil }
        paint.backgroundColor = c
      }
      guard let layers = bytes(), let clipped = int() else { return nil }
      if layers.count > 0 {
        guard
          let decoded = try? JSONDecoder().decode([BackgroundLayer].self, from: Data(layers))
        else { return nil }
        paint.backgroundLayers = decoded
      }
      paint.clippedItems = clipped
      return paint
    }

    mutating func path() -> FilledPath? {
      guard let c = color(), let contourCount = count(size: 8) else { return nil }
      var contours: [[FilledPath.Point]] = []
      contours.reserveCapacity(contourCount)
      for _ in 0..<contourCount {
        guard let n = count(size: 17) else { return nil }
        var points: [FilledPath.Point] = []
        points.reserveCapacity(n)
        for _ in 0..<n {
          guard let x = double(), let y = double(), let on = bool() else { return nil }
          points.append(FilledPath.Point(x, y, onCurve: on))
        }
        contours.append(points)
      }
      return FilledPath(contours: contours, color: c)
    }
  }
}
