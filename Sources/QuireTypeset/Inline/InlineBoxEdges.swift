// Decorated inline boxes (CSS 2.1 §8.6, §10.8; CSS Backgrounds 3; CSS Fragmentation 3 §5.4)
// across the stages: a `<code>` with padding, a border and a grey background, a `<span>`
// with a rounded outline, nested inline boxes.
//
// Each run carries the chain of decorated boxes it sits in (Ingest's
// Document/InlineBoxDecoration.swift); `ResolvedStyle.inlineBoxes` holds it in pixels.
//
// - **Shape** compares the chains of neighbouring scalars. Where a box starts it appends a
//   box item as wide as the start side's margin + border + padding, where it ends one as
//   wide as the end side's (the left side starts an LTR box, the right side an RTL one:
//   CSS 2.1 §8.6). The edge items sit next to the box's text with no glue between, so
//   the breaker (Knuth–Plass or greedy) counts them in the line they share with the first
//   and last words and never breaks between an edge and its word. An end edge goes before
//   the break items that follow its last word (a CJK break penalty), so it ends the line
//   with that word.
// - **Break** sees plain boxes.
// - **Compose** places an edge item as space (visual order puts a start edge before the
//   box's first scalar in its bidi run's direction, an end edge after its last), and
//   collects, per box on the line, the extent of its items (`LineInlineBoxes`). Each
//   fragment becomes one `BoxPaint` — the block painter's item, so every border style,
//   radius and background image is drawn by one painter — whose border box spans the
//   fragment's content and the edges on this line, and whose height is the box's content
//   area (ascent + descent at its font size) grown by its vertical padding and borders:
//   painted, not counted in the line's height (CSS 2.1 §10.8.1). With `slice` (the
//   initial value) a side whose edge is on another line is not drawn and its corners are
//   square; with `clone` every fragment has both sides and its own corners, and the line
//   breaker reserves the sides at every break inside the box (see `cloneBreak`). Paints
//   are ordered outer box first, before the line's backgrounds and glyphs.
//
// A `::before`/`::after` is a box like a span's: ingest gives its generated run its
// element's chain plus its own box (CSS 2.1 §12.1).
//
// Not yet: vertical lines (their chapters draw no inline box), a background image that
// runs on across `slice` fragments (each fragment positions its own).
//
// Bounds: an edge is at most the text width (a hostile `padding: 1e6px` takes one line, not
// a million pixels), vertical borders and padding at most an eighth of the page height
// each; chains are at most `InlineBoxDecoration.maxDepth` deep.
//
// Rejected: a box tree beside the runs (a second structure to keep in step with collect's
// white-space processing), and widening the first and last piece of the box (the word
// cache shares pieces between boxes and words, and bidi could not place the edges).

import QuireCore
import QuireIngest

/// A decorated inline box in page pixels (from `InlineBoxDecoration`).
struct ResolvedInlineBox {
  var id: Int
  /// Margin, border and padding of the left and right sides, px.
  var marginLeft = 0.0
  var marginRight = 0.0
  var left = PaintedBorderSide.none
  var right = PaintedBorderSide.none
  var top = PaintedBorderSide.none
  var bottom = PaintedBorderSide.none
  var paddingLeft = 0.0
  var paddingRight = 0.0
  var paddingTop = 0.0
  var paddingBottom = 0.0
  var radii: [Double] = [0, 0, 0, 0]
  var background = BoxBackground()
  var clone = false
  /// The content area above and below the baseline, px.
  var ascent = 0.0
  var descent = 0.0

  /// Width the box's left (or right) side takes in the line: margin + border + padding,
  /// bounded by `limit`.
  func side(left isLeft: Bool, limit: Double) -> Double {
    let w =
      isLeft
      ? marginLeft + left.width + paddingLeft : marginRight + right.width + paddingRight
    return min(max(w, -limit), limit)
  }
}

extension ChapterFlow {
  /// The chain of `style` in pixels (percentages of the text width); the content area
  /// from `face` at each box's font size.
  func resolveInlineBoxes(_ style: ComputedStyle, face: Face) -> [ResolvedInlineBox] {
    let chain = style.text.inlineBoxes
    // Vertical lines are composed along x and turned after: their boxes are not drawn yet.
    guard !chain.isEmpty, !vertical else { return [] }
    let limit = max(1, textWidth)
    func length(_ l: Length) -> Double { min(max(0, px(l, of: textWidth)), limit) }
    func side(_ s: BorderSide, _ color: RGBA) -> PaintedBorderSide {
      PaintedBorderSide(
        width: s.style.isVisible ? length(s.width) : 0, style: s.style, color: s.color ?? color)
    }
    return chain.map { d in
      var b = ResolvedInlineBox(id: d.id)
      b.marginLeft = min(max(px(d.marginLeft, of: textWidth), -limit), limit)
      b.marginRight = min(max(px(d.marginRight, of: textWidth), -limit), limit)
      b.left = side(d.border.left, d.color)
      b.right = side(d.border.right, d.color)
      b.top = side(d.border.top, d.color)
      b.bottom = side(d.border.bottom, d.color)
      b.top.width = min(b.top.width, pageHeight / 8)
      b.bottom.width = min(b.bottom.width, pageHeight / 8)
      b.paddingLeft = length(d.padding.left)
      b.paddingRight = length(d.padding.right)
      b.paddingTop = min(length(d.padding.top), pageHeight / 8)
      b.paddingBottom = min(length(d.padding.bottom), pageHeight / 8)
      let r = d.radius
      b.radii = [r.topLeft, r.topRight, r.bottomRight, r.bottomLeft].map { length($0) }
      b.background = d.background
      b.clone = d.clone
      let size = min(min(max(d.fontSize, 0.2), 8) * options.fontSize, pageHeight / 2)
      b.ascent = face.ascent * size
      b.descent = face.descent * size
      return b
    }
  }
}

/// Where a decorated box starts or ends in the shaped paragraph (`ItemSource.edge`).
struct InlineEdge {
  /// The box's first scalar (a start) or last (an end): where visual order places it.
  var scalar: Int
  /// The style whose chain holds the box, and the box's depth in it.
  var style: Int
  var depth: Int
  var isStart: Bool
  /// The edge is the box's left side (its visual position on the line).
  var isLeft: Bool
}

/// The boxes of the chain open at the shape stage's pen (PieceShaper).
struct OpenInlineBoxes {
  /// Open boxes, outermost first: id and the style that opened it.
  var open: [(id: Int, style: Int)] = []
  /// The style whose chain was last compared.
  var style = -1
  /// The left and right sides (border + padding) of the open `clone` boxes, px: what a
  /// break inside them adds to the line it ends and the line it starts.
  var cloneLeft = 0.0
  var cloneRight = 0.0
}

extension PieceShaper {
  /// Emits the edges where the chain of decorated boxes changes at scalar `i` (`n` at the
  /// paragraph's end): end edges of the boxes left, innermost first, then start edges of
  /// the boxes entered, outermost first.
  mutating func boxEdges(at i: Int) {
    openBoxes.style = i < text.count ? sty[i] : -1
    let chain = i < text.count ? styles[sty[i]].inlineBoxes : []
    var common = 0
    while common < chain.count, common < openBoxes.open.count,
      chain[common].id == openBoxes.open[common].id
    {
      common += 1
    }
    guard common < chain.count || common < openBoxes.open.count else { return }
    flush(i)
    let limit = max(1, settings.measure)
    while openBoxes.open.count > common {
      let (_, style) = openBoxes.open.removeLast()
      let depth = openBoxes.open.count
      let last = max(0, i - 1)
      let rtl = !levels.isEmpty && levels[min(last, levels.count - 1)] & 1 == 1
      let box = styles[style].inlineBoxes[depth]
      let edge = InlineEdge(scalar: last, style: style, depth: depth, isStart: false, isLeft: rtl)
      // Before the break items after the box's last word: the edge ends its line.
      var at = out.items.count
      while at > 0, !out.items[at - 1].isBox { at -= 1 }
      out.edges.append(edge)
      out.items.insert(.box(width: box.side(left: rtl, limit: limit)), at: at)
      out.sources.insert(.edge(out.edges.count - 1), at: at)
    }
    for depth in common..<chain.count {
      let rtl = !levels.isEmpty && levels[i] & 1 == 1
      openBoxes.open.append((chain[depth].id, sty[i]))
      out.edges.append(
        InlineEdge(scalar: i, style: sty[i], depth: depth, isStart: true, isLeft: !rtl))
      out.items.append(.box(width: chain[depth].side(left: !rtl, limit: limit)))
      out.sources.append(.edge(out.edges.count - 1))
    }
    openBoxes.cloneLeft = 0
    openBoxes.cloneRight = 0
    for b in chain where b.clone {
      openBoxes.cloneLeft += b.left.width + b.paddingLeft
      openBoxes.cloneRight += b.right.width + b.paddingRight
    }
  }

  /// A forced break (`<br>`) at scalar `i`; inside `clone` boxes the line it ends gets
  /// their end sides and the next line their start sides.
  mutating func forcedBreak(_ i: Int) {
    let clone = openBoxes.cloneLeft > 0 || openBoxes.cloneRight > 0
    let rtl = !levels.isEmpty && levels[i] & 1 == 1
    let (end, start) =
      rtl
      ? (openBoxes.cloneLeft, openBoxes.cloneRight) : (openBoxes.cloneRight, openBoxes.cloneLeft)
    if clone {
      out.items.append(.box(width: end))
      out.sources.append(.cloneSide(i))
    }
    finishing(i)
    if clone {
      out.items.append(.box(width: start))
      out.sources.append(.cloneSide(i))
    }
  }

  /// A word space inside `clone` boxes (`box-decoration-break: clone`): a line that breaks
  /// here ends with the boxes' end sides and the next starts with their start sides. The
  /// items (Knuth–Plass's construction for material at a break): a penalty as wide as the
  /// end sides (the only break point), glue of the space less the start sides, a box of
  /// the start sides (kept at the next line's start, where the glue is discarded), and a
  /// penalty that forbids a break before the next word. Unbroken, they add up to the space.
  /// Returns false when no clone box is open.
  mutating func cloneBreak(_ i: Int, glue: BreakItem) -> Bool {
    guard openBoxes.cloneLeft > 0 || openBoxes.cloneRight > 0, !settings.noWrap,
      case .glue(let w, let st, let sh) = glue
    else { return false }
    let rtl = !levels.isEmpty && levels[i] & 1 == 1
    let (end, start) =
      rtl
      ? (openBoxes.cloneLeft, openBoxes.cloneRight) : (openBoxes.cloneRight, openBoxes.cloneLeft)
    out.items.append(.penalty(width: end, cost: 0, flagged: false))
    out.sources.append(.cloneSide(i))
    out.items.append(.glue(width: w - start, stretch: st, shrink: sh))
    out.sources.append(.space(i, style: sty[i]))
    out.items.append(.box(width: start))
    out.sources.append(.cloneSide(i))
    out.items.append(BreakItem.prohibitedBreak)
    out.sources.append(.plain(i))
    return true
  }
}

/// The fragments of decorated boxes on one line, collected while it is placed.
struct LineInlineBoxes {
  struct Fragment {
    var box: ResolvedInlineBox
    var x0: Double
    var x1: Double
    var leftEdge = false
    var rightEdge = false
    /// Depth in its chain (outer boxes paint first).
    var depth: Int
  }
  private(set) var fragments: [Fragment] = []
  var isEmpty: Bool { fragments.isEmpty }

  /// Records content of a run whose chain is `chain` placed from `x0` to `x1`.
  mutating func add(_ chain: [ResolvedInlineBox], from x0: Double, to x1: Double) {
    guard x1 >= x0 else { return }
    for (depth, b) in chain.enumerated() { extend(b, depth: depth, x0, x1) }
  }

  /// Records an edge item of `width` at `x`: its border and padding belong to the box,
  /// its margin lies outside it.
  mutating func addEdge(_ edge: InlineEdge, box b: ResolvedInlineBox, at x: Double, width: Double) {
    let k: Int
    if edge.isLeft {
      k = extend(b, depth: edge.depth, x + b.marginLeft, x + width)
      fragments[k].leftEdge = true
    } else {
      k = extend(b, depth: edge.depth, x, x + width - b.marginRight)
      fragments[k].rightEdge = true
    }
  }

  @discardableResult
  private mutating func extend(_ b: ResolvedInlineBox, depth: Int, _ x0: Double, _ x1: Double)
    -> Int
  {
    if let k = fragments.lastIndex(where: { $0.box.id == b.id }) {
      fragments[k].x0 = min(fragments[k].x0, x0)
      fragments[k].x1 = max(fragments[k].x1, x1)
      return k
    }
    fragments.append(Fragment(box: b, x0: min(x0, x1), x1: max(x0, x1), depth: depth))
    return fragments.count - 1
  }

  /// Cuts every fragment to `lo…hi` (a clipped line); its cut sides are not drawn.
  mutating func clip(_ lo: Double, _ hi: Double) {
    fragments = fragments.compactMap {
      var f = $0
      if f.x0 < lo { (f.x0, f.leftEdge) = (lo, false) }
      if f.x1 > hi { (f.x1, f.rightEdge) = (hi, false) }
      return f.x1 > f.x0 ? f : nil
    }
  }

  /// The paints of the line's fragments, outer boxes first, with the box's element
  /// ordinal; `baseline` from the line's top.
  func paints(baseline: Double) -> [(source: Int, paint: BoxPaint)] {
    let ordered = fragments.enumerated().sorted {
      ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset)
    }
    return ordered.compactMap { e in
      Self.paint(e.element, baseline: baseline).map { (e.element.box.id, $0) }
    }
  }

  static func paint(_ f: Fragment, baseline: Double) -> BoxPaint? {
    let b = f.box
    let left = f.leftEdge || b.clone
    let right = f.rightEdge || b.clone
    var x0 = f.x0
    var x1 = f.x1
    // A cloned side on a line where the box does not start (or end) is drawn outside
    // the fragment's content; its width was reserved by the break (`cloneBreak`).
    if b.clone && !f.leftEdge { x0 -= b.left.width + b.paddingLeft }
    if b.clone && !f.rightEdge { x1 += b.right.width + b.paddingRight }
    let top = baseline - b.ascent - b.paddingTop - b.top.width
    let bottom = baseline + b.descent + b.paddingBottom + b.bottom.width
    guard x1 > x0, bottom > top, x0.isFinite, x1.isFinite else { return nil }
    var paint = BoxPaint(
      rect: Rect(x: x0, y: top, width: x1 - x0, height: bottom - top), top: b.top,
      right: right ? b.right : .none, bottom: b.bottom, left: left ? b.left : .none,
      radii: [
        left ? b.radii[0] : 0, right ? b.radii[1] : 0, right ? b.radii[2] : 0,
        left ? b.radii[3] : 0,
      ], backgroundColor: b.background.color, backgroundLayers: b.background.layers)
    paint.clippedItems = 0
    return paint
  }
}

/// One line fragment of a decorated inline box: its border box and its element's ordinal
/// in the chapter (manifest `inlineBoxes`, compared with a browser's `getClientRects`).
package struct InlineBoxFragment: Sendable, Hashable {
  package var source: Int
  package var rect: Rect
  package init(source: Int, rect: Rect) {
    self.source = source
    self.rect = rect
  }
}
