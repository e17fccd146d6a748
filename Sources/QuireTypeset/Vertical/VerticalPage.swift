// Vertical pages: a chapter whose `writing-mode` is vertical is laid out in LOGICAL
// coordinates and mapped to the physical page here, in one place.
//
// Logical frame. The chapter flows as if horizontal on a page whose width is the physical
// page's height (the inline axis: a line's measure is the content height) and whose height
// is the physical width (the block axis: lines stack from the right edge to the left for
// `vertical-rl`, from the left to the right for `vertical-lr`). The line breaker, kinsoku,
// justification, the block flow and the paginator run unchanged; shaping alone knows about
// vertical text (Vertical/VerticalShaping.swift: upright runs are shaped top to bottom).
//
// Mapping. `vertical-rl` is a quarter turn clockwise: logical (X, Y) → physical
// (W − Y, X), where W is the page width; a rectangle (x, y, w, h) becomes
// (W − y − h, x, h, w) — tall and narrow for a line. Runs laid out as horizontal text become
// `.sideways` (drawn rotated); upright runs keep their glyphs unrotated at the mapped pen
// positions. `vertical-lr` stacks lines the other way but keeps each line's over side on the
// right (CSS Writing Modes 3 §2.3): every point inside a line's band is first mirrored
// within that band, then the page is reflected: (X, Y) → (Y, X). Mirror then reflection is
// the same quarter turn inside each line, while lines advance left to right.
//
// Images keep their upright pixels: the flow sized each on its side (ImageSizing.vertical:
// its logical width is its physical height, fitted to the column's height), so its mapped
// box is the upright picture at its size, standing in its own column(s).
//
// Costs: one pass over the page's items, lines and boxes; `vertical-lr` adds a binary
// search over the page's line bands per point.

import QuireIngest

/// Maps a vertical chapter's logical pages to physical ones.
struct VerticalPage {
  let mode: WritingMode
  /// The physical page width, px.
  let width: Double
  /// `vertical-lr`: the lines' bands on the logical page (top, bottom), sorted by top.
  private var bands: [(top: Double, bottom: Double)] = []

  init(mode: WritingMode, width: Int) {
    self.mode = mode
    self.width = Double(width)
  }

  /// The options of the logical page: width and height swapped, margins turned with them.
  static func logicalOptions(_ o: LayoutOptions, mode: WritingMode) -> LayoutOptions {
    var l = o
    (l.width, l.height) = (o.height, o.width)
    let m = o.margins
    l.margins =
      mode == .verticalLR
      ? .init(top: m.left, right: m.bottom, bottom: m.right, left: m.top)
      : .init(top: m.right, right: m.bottom, bottom: m.left, left: m.top)
    return l
  }

  /// Maps every page of a chapter laid out on the logical page.
  func map(_ pages: inout [Page]) {
    for i in pages.indices { map(&pages[i]) }
  }

  func map(_ page: inout Page) {
    var mapper = self
    if mode == .verticalLR {
      mapper.bands = page.lines.map { ($0.rect.y, $0.rect.maxY) }.sorted { $0.top < $1.top }
    }
    for k in page.items.indices { page.items[k] = mapper.item(page.items[k]) }
    for k in page.lines.indices { page.lines[k].rect = mapper.rect(page.lines[k].rect) }
    for k in page.images.indices { page.images[k] = mapper.image(page.images[k]) }
    for k in page.blocks.indices { page.blocks[k].rect = mapper.rect(page.blocks[k].rect) }
    for k in page.boxes.indices {
      page.boxes[k].border = mapper.rect(page.boxes[k].border)
      page.boxes[k].content = mapper.rect(page.boxes[k].content)
    }
    if let bg = page.background { page.background = mapper.box(bg) }
    page.writingMode = mode
  }

  func item(_ item: DisplayItem) -> DisplayItem {
    switch item {
    case .glyphs(let run): return .glyphs(glyphs(run))
    case .image(let p): return .image(image(p))
    case .fill(let r, let c): return .fill(rect(r), c)
    case .box(let b): return .box(box(b))
    case .path(let p):
      return .path(
        p.mapped {
          let q = point($0, $1)
          return (q.x, q.y)
        })
    case .transformed(let g):
      // The matrix conjugated by the logical-to-physical map (affine for the parts a group
      // spans): physical = P × M × P⁻¹.
      let (o, ex, ey) = (point(0, 0), point(1, 0), point(0, 1))
      let p = AffineMatrix(
        a: ex.x - o.x, b: ex.y - o.y, c: ey.x - o.x, d: ey.y - o.y, e: o.x, f: o.y)
      let m = p.inverted.map { p.concatenating(g.matrix).concatenating($0) } ?? g.matrix
      return .transformed(
        TransformedGroup(matrix: m, bounds: rect(g.bounds), items: g.items.map { self.item($0) }))
    }
  }

  func glyphs(_ run: GlyphRun) -> GlyphRun {
    var out = run
    for k in run.x.indices {
      let (x, y) = point(Double(run.x[k]), Double(run.y[k]))
      out.x[k] = Float(x)
      out.y[k] = Float(y)
    }
    if run.orientation == .horizontal { out.orientation = .sideways }
    return out
  }

  /// A logical point on the physical page.
  func point(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
    mode == .verticalLR ? (mirrored(y), x) : (width - y, x)
  }

  /// A logical rectangle on the physical page.
  func rect(_ r: Rect) -> Rect {
    if mode == .verticalLR {
      let band = self.band(r.y + r.height / 2)
      let y = band.map { r.height <= $0.bottom - $0.top ? $0.top + $0.bottom - r.maxY : r.y } ?? r.y
      return Rect(x: y, y: r.x, width: r.height, height: r.width)
    }
    return Rect(x: width - r.maxY, y: r.x, width: r.height, height: r.width)
  }

  /// The image upright in its mapped box (sized on its side by the flow).
  func image(_ p: ImagePlacement) -> ImagePlacement {
    var out = p
    out.rect = rect(p.rect)
    if let clip = p.clip { out.clip = rect(clip) }
    return out
  }

  /// A box's fragment: its rectangle mapped and its border sides turned with it.
  func box(_ b: BoxPaint) -> BoxPaint {
    var out = b
    out.rect = rect(b.rect)
    if mode == .verticalLR {
      (out.top, out.right, out.bottom, out.left) = (b.left, b.bottom, b.right, b.top)
    } else {
      (out.top, out.right, out.bottom, out.left) = (b.left, b.top, b.right, b.bottom)
    }
    return out
  }

  /// `vertical-lr`: `y` mirrored within the band of the line that holds it.
  private func mirrored(_ y: Double) -> Double {
    guard let b = band(y) else { return y }
    return b.top + b.bottom - y
  }

  /// The last band that starts at or above `y` and reaches it.
  private func band(_ y: Double) -> (top: Double, bottom: Double)? {
    var lo = 0
    var hi = bands.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if bands[mid].top <= y { lo = mid + 1 } else { hi = mid }
    }
    guard lo > 0, y <= bands[lo - 1].bottom else { return nil }
    return bands[lo - 1]
  }
}
