// Stage 5 of inline layout, **compose**: chosen breaks → placed lines. For each line: the
// items it keeps (glue at its end and penalties inside drop out), its natural width at the
// line's adjustment ratio, its visual order (bidi runs of the line, items of an RTL run
// reversed), its start x from the alignment, its height from the strut and every piece's
// style, and its glyph runs, decoration fills and images.
//
// Coordinates: x in page pixels (the caller's `left` is the line's left edge); y relative
// to the line's top, the baseline at `baseline`. Justification widens glue by the line's
// ratio (clamped to −1…4); letter-spacing glue widens its word's glyph gaps instead of
// moving the word. An inserted hyphen is drawn (from the style's face) but is not part of
// the line's text.

import CHarfBuzz
import QuireCore
import QuireIngest

/// A glue's width after justification (infinite "fil" glue only fills, never moves text).
@inline(__always) func adjusted(_ w: Double, _ stretch: Double, _ shrink: Double, _ ratio: Double)
  -> Double
{
  if ratio >= 0 { return stretch.isFinite ? w + ratio * stretch : w }
  return shrink.isFinite ? w + ratio * shrink : w
}

/// One placed line of a paragraph.
struct ComposedLine {
  /// The line's number in its paragraph (from 0).
  var index: Int
  var runs: [GlyphRun] = []
  /// Underlines and strike-throughs.
  var fills: [DisplayItem] = []
  var images: [ImagePlacement] = []
  /// Formulas on the line: their display items and placements.
  var mathItems: [DisplayItem] = []
  var maths: [MathPlacement] = []
  /// Inline blocks on the line, placed (InlineBoxLayout.swift).
  var boxes = PlacedInlineBoxes()
  /// Height of the line box and its baseline from the top, px.
  var height: Double
  var baseline: Double
  /// Source offsets of its first and last character (`Int.max`, −1 for none).
  var firstSource = Int.max
  var lastSource = -1
  /// The text as shown, without an inserted hyphen.
  var text: String
  /// The pen where the line starts and where it ends (the pen always moves right, also
  /// in right-to-left text, which is placed in visual order).
  var start: Double
  var end: Double
  var hyphenated: Bool
  var ratio: Double
  /// A word space as set over its natural width (nil: no word space).
  var spaceFactor: Double?
  /// Text that may not wrap was cut at the measure's edge…
  var clipped = false
  /// …at its end edge (the right one, the left one in right-to-left text).
  var cutAtEnd = false
  /// The line is set as a first line (indent, measure): the paragraph's first, or one after
  /// a forced break under `text-indent: each-line`.
  var first = false
  /// Inline background fills (LineBackgrounds.swift), drawn before the glyphs.
  var backgrounds: [DisplayItem] = []
  /// Fragments of decorated inline boxes, for the manifest (InlineBoxEdges.swift).
  var inlineBoxes: [InlineBoxFragment] = []
  /// Lines that may not wrap: room kept free at the end edge for an ellipsis, and the
  /// left and right extent of what was kept inside the edges (TextOverflow.swift).
  var endReserve = 0.0
  var keptLeft = Double.infinity
  var keptRight = -Double.infinity
}

/// How a paragraph's lines are set: measure, alignment, direction.
struct LineGeometry {
  /// Left edge of the text and the measure, px.
  var left: Double
  var width: Double
  /// First-line indent (negative: hanging) and the first line's measure.
  var indent: Double
  var firstWidth: Double
  var align: TextAlign
  var rtl: Bool
  /// The page's text height: no line is taller.
  var pageHeight: Double
  /// The indent of the lines after the first (`text-indent: … hanging`), px.
  var restIndent = 0.0
  /// The room of the lines beside floats, by line number (Blocks/FloatLayout.swift).
  var bands: [LineBand] = []
  /// A line's measure and its left edge, px (`index`: the line number, for floats).
  func lineWidth(first: Bool, index: Int) -> Double {
    LineBand.measure(first ? firstWidth : max(1, width - restIndent), bands, index)
  }
  func lineLeft(first: Bool, index: Int) -> Double {
    left + (first ? indent : restIndent) + (index < bands.count ? bands[index].inset : 0)
  }

  /// `text-align-last` (nil: `auto`).
  var alignLast: TextAlign? = nil
  /// `text-indent: each-line`: a line after a forced break is indented as the first.
  var eachLine = false
  /// Text that may not wrap: lines are clipped to the measure.
  var clip = false
  /// A clipped line ends in an ellipsis (`text-overflow: ellipsis`, TextOverflow.swift).
  var ellipsis = false

  /// The alignment of a line; `last` for the paragraph's last line or one before a forced
  /// break (CSS Text 3 §7.2: `text-align-last`, else `text-align` with `justify` as `start`).
  func alignment(last: Bool) -> TextAlign {
    guard last else { return align }
    if let alignLast { return alignLast }
    return align == .justify ? .start : align
  }
}

/// A piece's trivially copyable fields (`LineComposer.pieceSpans`): what placing a piece of
/// text reads, so that only a drawn page copies the piece itself (for its glyphs).
struct PieceSpan {
  var start: Int
  var end: Int
  var style: Int
  var face: Int
  var size: Double
  var width: Double
  var imageAbove: Double
  var imageBelow: Double
  var form: VerticalForm
  /// Text: no image, formula or inline block.
  var isText: Bool

  init(_ piece: borrowing Piece) {
    start = piece.start
    end = piece.end
    style = piece.style
    face = piece.face
    size = piece.size
    width = piece.width
    imageAbove = piece.imageAbove
    imageBelow = piece.imageBelow
    form = piece.form
    isText = piece.isText
  }
}

/// Places the lines of one shaped paragraph.
struct LineComposer {
  let text: [UInt32]
  /// Source offset of each scalar.
  let src: [Int]
  let pieces: [Piece]
  let items: [BreakItem]
  let sources: [ItemSource]
  /// Sides of decorated inline boxes (InlineBoxEdges.swift).
  let edges: [InlineEdge]
  let styles: [ResolvedStyle]
  let fonts: FontSet
  let bidi: BidiParagraph
  let geometry: LineGeometry
  /// The block's own style (its strut).
  let blockStyle: Int
  /// A piece's trivially copyable fields, read many times per line: an element of `pieces`
  /// is copied whole (with retains) by each subscript read.
  let pieceSpans: [PieceSpan]
  /// Whether every glyph goes into the line's runs. False for pages that are never drawn
  /// (`paginate`): each run still starts where it would, with its face, size and colour
  /// (the page's font list) and its first piece's glyphs (a run's first baseline is read by
  /// table layout), but later pieces add no glyphs. Geometry is computed the same way
  /// either way; lines that are clipped keep every glyph (their kept extent is measured
  /// over them).
  var drawsGlyphs = true

  init(
    _ text: CollectedText, _ shaped: ShapedParagraph, bidi: BidiParagraph,
    styles: [ResolvedStyle], fonts: FontSet, geometry: LineGeometry, blockStyle: Int
  ) {
    self.text = text.scalars
    src = text.sources
    pieces = shaped.pieces
    items = shaped.items
    sources = shaped.sources
    edges = shaped.edges
    self.styles = styles
    self.fonts = fonts
    self.bidi = bidi
    self.geometry = geometry
    self.blockStyle = blockStyle
    // Read in place: `map` copied each piece (retaining its glyphs) to build its span.
    var spans: [PieceSpan] = []
    spans.reserveCapacity(shaped.pieces.count)
    shaped.pieces.withUnsafeBufferPointer { pieces in
      for p in pieces.indices { spans.append(PieceSpan(pieces[p])) }
    }
    pieceSpans = spans
  }

  /// Composes every line of `breaks` (a line with no box, e.g. between two `<br>`, is
  /// skipped).
  func compose(_ breaks: [LineBreak], shaper: inout Shaper) -> [ComposedLine] {
    var lines: [ComposedLine] = []
    lines.reserveCapacity(breaks.count)
    var start = 0
    var metrics = MetricCache()
    var placeStyles = PlaceStyles()
    // The kept items of each line, in one buffer for the paragraph (an array per line was
    // an allocation per line).
    var order: [Int] = []
    for (lineIndex, lb) in breaks.enumerated() {
      defer { start = lb.index + 1 }
      var s = start
      while s <= lb.index {
        if case .box = items[s] { break }
        s += 1
      }
      if s > lb.index {
        // A line of nothing: between two <br>s it is a blank line (stanza breaks), as in a
        // browser; the paragraph's own end after a last <br> makes none.
        if lineIndex < breaks.count - 1, case .penalty(_, let cost, _) = items[lb.index],
          cost >= BreakItem.forcedBreak
        {
          lines.append(blankLine(lineIndex, cache: &metrics))
        }
        continue
      }
      let first = lineIndex == 0 || (geometry.eachLine && isForced(breaks[lineIndex - 1].index))
      let last = lineIndex == breaks.count - 1 || isForced(lb.index)
      let align = geometry.alignment(last: last)
      // Unjustified lines are set at natural width, but shrink when they must to fit.
      var ratio = align == .justify ? min(max(lb.ratio, -1), 4) : max(min(lb.ratio, 0), -1)
      if align == .justify && last {
        ratio = lastLineRatio(
          from: lineIndex == 0 ? start : s, firstBox: s, to: lb.index, first: first,
          index: lineIndex)
      }
      // The breaker measures the first line from item 0; later lines from their first box.
      let natural = kept(
        from: lineIndex == 0 ? start : s, firstBox: s, to: lb.index, ratio, into: &order)
      let (shown, spaceFactor) = shownText(order, ratio: ratio)
      let from = order.first ?? Int.max  // `kept` lists items in logical order
      if !bidi.levels.isEmpty {
        order = visualOrder(order)
      } else if geometry.rtl {
        order.reverse()
      }
      let (above, below) = lineMetrics(order, cache: &metrics)
      var line = ComposedLine(
        index: lineIndex, height: above + below, baseline: above, text: shown, start: 0, end: 0,
        hyphenated: lb.hyphenated, ratio: ratio, spaceFactor: spaceFactor)
      line.first = first
      line.start = startX(first: first, index: lineIndex, natural: natural, align: align)
      if geometry.ellipsis {
        lines.append(
          ellipsized(order, from: from, ratio: ratio, line, styles: &placeStyles, shaper: &shaper))
        continue
      }
      place(order, from: from, ratio: ratio, into: &line, styles: &placeStyles, shaper: &shaper)
      lines.append(consume line)  // moved: a copy retained and released a dozen references
    }
    return lines
  }

  /// An empty line of the paragraph's strut (a blank line made by consecutive <br>s).
  func blankLine(_ lineIndex: Int, cache: inout MetricCache) -> ComposedLine {
    let (above, below) = lineMetrics([], cache: &cache)
    var line = ComposedLine(
      index: lineIndex, height: above + below, baseline: above, text: "", start: 0, end: 0,
      hyphenated: false, ratio: 0, spaceFactor: nil)
    line.first = lineIndex == 0
    line.start = startX(
      first: line.first, index: lineIndex, natural: 0, align: geometry.alignment(last: true))
    line.end = line.start
    return line
  }

  /// The items a line keeps, in logical order (into `order`, emptied first), and their
  /// width at `ratio`: boxes, glue before the break, and the break's penalty when it is
  /// drawn (a hyphen) or has width.
  func kept(
    from first: Int, firstBox s: Int, to end: Int, _ ratio: Double, into order: inout [Int]
  ) -> Double {
    var natural = 0.0
    order.removeAll(keepingCapacity: true)
    order.reserveCapacity(end - first + 1)
    for k in first...end {
      if k < s, case .penalty = items[k] { continue }
      switch items[k] {
      case .box(let w):
        natural += w
        order.append(k)
      case .glue(let w, let st, let sh):
        if k < end {
          natural += adjusted(w, st, sh, ratio)
          order.append(k)
        }
      case .penalty(let w, _, let flagged):
        if k == end && (flagged || w != 0) {
          natural += w
          order.append(k)
        }
      }
    }
    return natural
  }

  /// The line's text as shown (pieces and word spaces, logical order) and the first word
  /// space's width over its natural width.
  func shownText(_ order: [Int], ratio: Double) -> (String, Double?) {
    var spaceFactor: Double? = nil
    var bound = 0
    for k in order {
      switch sources[k] {
      case .piece(let p): bound += 4 * (pieceSpans[p].end - pieceSpans[p].start)
      case .space:
        bound += 1
        if spaceFactor == nil, case .glue(let w, let st, let sh) = items[k], w > 0 {
          spaceFactor = adjusted(w, st, sh, ratio) / w
        }
      default: break
      }
    }
    let shown = LineText.string(bound: bound) { shown in
      for k in order {
        switch sources[k] {
        case .piece(let p): shown.append(text, pieceSpans[p].start..<pieceSpans[p].end)
        case .space: if case .glue = items[k] { shown.appendSpace() }
        default: break
        }
      }
    }
    return (shown, spaceFactor)
  }

  /// Visual order: the bidi runs of the line, items inside a run in its direction.
  func visualOrder(_ order: [Int]) -> [Int] {
    let n = text.count
    func position(_ k: Int) -> Int {
      switch sources[k] {
      case .piece(let p): return pieceSpans[p].start
      case .space(let t, _), .soft(let t, _), .plain(let t), .cloneSide(let t): return t
      case .letter(let p): return pieceSpans[p].start
      case .edge(let e): return edges[e].scalar
      case .end: return n
      }
    }
    // Within one position a box's start side comes first and its end side last.
    func rank(_ k: Int) -> Int {
      guard case .edge(let e) = sources[k] else { return 1 }
      return edges[e].isStart ? 0 : 2
    }
    let positions = order.map(position)
    let lo = positions.min() ?? 0
    let hi = min(n, (positions.max() ?? 0) + 1)
    let runs = bidi.visualRuns(lineRange: lo..<max(lo, hi))
    var keyed: [(run: Int, key: Int, item: Int)] = []
    keyed.reserveCapacity(order.count)
    for (k, pos) in zip(order, positions) {
      let r = runs.firstIndex { $0.range.contains(pos) } ?? runs.count
      let rtlRun = r < runs.count && runs[r].rtl
      let key = pos * 4 + rank(k)
      keyed.append((r, rtlRun ? -key : key, k))
    }
    keyed.sort { ($0.run, $0.key) < ($1.run, $1.key) }
    return keyed.map(\.item)
  }

  /// Where the pen starts: the alignment's share of the free space.
  func startX(first: Bool, index: Int, natural: Double, align: TextAlign) -> Double {
    let g = geometry
    let lineWidth = g.lineWidth(first: first, index: index)
    let lineLeft = g.lineLeft(first: first, index: index)
    let free = lineWidth - natural
    var x: Double
    switch align {
    case .start, .justify: x = g.rtl ? lineLeft + free : lineLeft
    case .left: x = lineLeft
    case .end: x = g.rtl ? lineLeft : lineLeft + free
    case .right: x = lineLeft + free
    case .center: x = lineLeft + free / 2
    }
    if free < 0 && !g.rtl { x = lineLeft }
    return x
  }

  /// The last style whose strut was read (a style is copied whole by each read).
  struct MetricCache {
    var style = -1
    var above = 0.0
    var below = 0.0
    /// The style's baseline shift (its strut is taken unshifted beside an atomic box).
    var shift = 0.0
    /// Whether the style aligns its boxes with the line box (`top`, `bottom`).
    var lineRelative = false
  }

  /// Whether piece `p` is text aligned with the line box: its inline box (the style's
  /// line height, `above` + `below`) sits at the line's top or bottom (VerticalAlign.swift).
  func textLineAligned(_ p: Int) -> (top: Bool, height: Double)? {
    let piece = pieces[p]
    guard piece.image == nil, piece.inlineBox == nil, piece.math == nil else { return nil }
    let rs = styles[piece.style]
    guard LineAlignedBoxes.isLineRelative(rs.style.text.verticalShift) else { return nil }
    return (rs.style.text.verticalShift == .top, rs.above + rs.below)
  }

  /// Whether piece `p` is an image or inline block aligned with the line box (`top` or
  /// `bottom`), and which.
  func lineAligned(_ p: Int) -> (top: Bool, height: Double)? {
    let piece = pieces[p]
    guard piece.image != nil || piece.inlineBox != nil else { return nil }
    let v = styles[piece.style].style.text.verticalShift
    guard LineAlignedBoxes.isLineRelative(v) else { return nil }
    return (v == .top, piece.imageAbove + piece.imageBelow)
  }

  /// Space above and below the baseline: the block's strut plus every piece's style (for
  /// an atomic box, the style's strut unshifted) and inline image, then the boxes aligned
  /// with the line box — images, inline blocks and text (VerticalAlign.swift) — cut to the
  /// page.
  func lineMetrics(_ order: [Int], cache: inout MetricCache) -> (Double, Double) {
    var above = styles[blockStyle].above
    var below = styles[blockStyle].below
    var aligned = LineAlignedBoxes()
    for k in order {
      if case .piece(let p) = sources[k] {
        let ps = pieceSpans[p].style
        if ps != cache.style {  // styles[i] copies the whole style: once per style run
          cache.style = ps
          cache.above = styles[ps].above
          cache.below = styles[ps].below
          cache.shift = styles[ps].shift
          cache.lineRelative = LineAlignedBoxes.isLineRelative(styles[ps].style.text.verticalShift)
        }
        if cache.lineRelative, let text = textLineAligned(p) {
          aligned.add(height: text.height, top: text.top)
          continue
        }
        let span = pieceSpans[p]
        if span.imageAbove == 0 && span.imageBelow == 0 {
          above = max(above, cache.above)
          below = max(below, cache.below)
        } else {
          // An image, inline block or formula: its `vertical-align` moves the box, not the
          // strut of the text around it (CSS 2.1 §10.8: its inline box is its margin box).
          above = max(above, cache.above - cache.shift)
          below = max(below, cache.below + cache.shift)
        }
        if cache.lineRelative, let box = lineAligned(p) {
          aligned.add(height: box.height, top: box.top)
        } else {
          above = max(above, pieceSpans[p].imageAbove)
          below = max(below, pieceSpans[p].imageBelow)
        }
      }
    }
    (above, below) = aligned.grow(above: above, below: below)
    // A line never exceeds the page (an image is already scaled to fit; a huge strut is cut).
    let pageHeight = geometry.pageHeight
    if above + below > pageHeight { below = max(0, pageHeight - above) }
    if above > pageHeight { above = pageHeight }
    return (above, below)
  }
}
