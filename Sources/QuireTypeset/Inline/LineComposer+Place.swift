// Compose, the placing half: a line's items in visual order → glyph runs, decoration fills,
// images, and the inserted hyphen. Pieces of one face, size, colour and synthetic style that
// follow each other join one glyph run. Decorations are collected as spans and merged
// (LineDecorations.swift). A line of text that may not wrap (`pre`, `nowrap`) and is wider
// than its measure is clipped to it: glyphs and images that would cross the measure's edges
// are dropped, decorations cut, and the line is flagged (`ComposedLine.clipped`).

import CHarfBuzz
import QuireCore
import QuireIngest

extension LineComposer {
  /// How far image or inline block `piece` (number `p`) reaches above `line`'s baseline:
  /// its own extent, or from the line box's top or bottom when aligned with it.
  @inline(__always)
  func above(_ p: Int, _ piece: Piece, in line: ComposedLine) -> Double {
    guard let box = lineAligned(p) else { return piece.imageAbove }
    return LineAlignedBoxes.above(
      height: box.height, top: box.top, baseline: line.baseline, lineHeight: line.height)
  }

  /// Style `i` as text on `line`: text aligned with the line box (`top`, `bottom`) gets the
  /// shift that puts its inline box's top at the line's top or its bottom at the line's
  /// bottom (VerticalAlign.swift); other styles are as resolved.
  @inline(__always)
  func lineStyle(_ i: Int, on line: ComposedLine) -> ResolvedStyle {
    var rs = styles[i]
    switch rs.style.text.verticalShift {
    case .top?: rs.shift = line.baseline - rs.above
    case .bottom?: rs.shift = line.baseline - line.height + rs.below
    default: break
    }
    return rs
  }

  /// Places the items of `order` (visual order; `from` its first item in logical order)
  /// from `line.start`, filling `line`'s runs, fills, images, source range and end pen.
  /// `cache` keeps what is read of each style across the paragraph's lines.
  func place(
    _ order: [Int], from: Int, ratio: Double, into line: inout ComposedLine,
    styles cache: inout PlaceStyles, shaper: inout Shaper
  ) {
    var x = line.start
    cache.startLine(baseline: line.baseline, height: line.height)
    // The pieces' style (the block's as resolved until a piece changes it) and the spaces'.
    var rsIndex = blockStyle
    var cur = slot(blockStyle, raw: true, on: line, in: &cache)
    var spaceStyle = -1
    var spaceSlot = 0
    var decorations = LineDecorations()
    var annotations = LineAnnotations()
    var backgrounds = LineBackgrounds()
    var boxes = LineInlineBoxes()
    let edges = clipEdges(line)
    // A page that is not drawn keeps only each run's first glyphs: a piece that joins the
    // open run adds none (saves ~100 instructions a piece, ~25 M on moby-dick).
    let skipsJoined = !drawsGlyphs && edges == nil
    var open: OpenRun? = nil
    for k in order {
      switch (items[k], sources[k]) {
      case (.box, .piece(let p)):
        // The piece's plain fields: the piece itself (its glyphs) is copied only to draw it.
        let span = pieceSpans[p]
        if span.style != rsIndex {
          rsIndex = span.style
          cur = slot(span.style, raw: false, on: line, in: &cache)
        }
        let extra = letterExtra(before: k, of: p, from: from, ratio: ratio)
        if !span.isText {
          placeObject(p, color: cache.entries[cur].glyph.color, at: x, into: &line, clip: edges)
        } else {
          let key = OpenRun(style: rsIndex, face: span.face, size: span.size, form: span.form)
          if !skipsJoined || open != key {
            placeGlyphs(
              p, span, style: cache.entries[cur].glyph, at: x, extra: extra, into: &line,
              clip: edges)
            if skipsJoined { open = line.runs[line.runs.count - 1].glyphs.isEmpty ? nil : key }
          }
        }
        if !cache.entries[cur].plain {
          record(
            p, span, cache.entries[cur], at: x, extra: extra, annotations: &annotations,
            decorations: &decorations, backgrounds: &backgrounds, boxes: &boxes)
        }
        line.firstSource = min(line.firstSource, src[span.start])
        line.lastSource = max(line.lastSource, src[span.end - 1])
        x += span.width + extra
      case (.glue, .letter): break  // spread over its piece's glyphs
      case (.glue(let w, let st, let sh), .space(_, let si)):
        let width = adjusted(w, st, sh, ratio)
        if si != spaceStyle {
          spaceStyle = si
          spaceSlot = slot(si, raw: false, on: line, in: &cache)
        }
        if !cache.entries[spaceSlot].plain {
          let ss = cache.entries[spaceSlot]
          if !ss.inlineBoxes.isEmpty { boxes.add(ss.inlineBoxes, from: x, to: x + width) }
          if !ss.decorations.isEmpty { decorations.add(ss.decorations, from: x, to: x + width) }
          backgrounds.add(ss.band, from: x, to: x + width)
        }
        x += width
      case (.glue(let w, let st, let sh), _):
        x += adjusted(w, st, sh, ratio)
      case (.box(let w), .edge(let e)):
        let edge = self.edges[e]
        boxes.addEdge(edge, box: styles[edge.style].inlineBoxes[edge.depth], at: x, width: w)
        x += w
      case (.box(let w), .cloneSide), (.penalty(let w, _, _), .cloneSide):
        x += w
      case (.penalty(let w, _, _), .soft(_, let si)):
        // The inserted hyphen: drawn, not part of the line's text.
        let hyphenSlot = slot(si, raw: false, on: line, in: &cache)
        placeHyphen(cache.entries[hyphenSlot], at: x, on: &line, shaper: &shaper)
        open = nil
        let rs = cache.entries[cur]
        if !rs.decorations.isEmpty { decorations.add(rs.decorations, from: x, to: x + w) }
        backgrounds.add(rs.band, from: x, to: x + w)
        x += w
      case (.penalty(let w, let cost, _), _) where w < 0 && cost == 0:
        // A line ending in compressed CJK punctuation: its blank half is not part of the
        // line (the breaker counted the line this much shorter). Hanging punctuation (a
        // costly −1 em penalty) stays in the line's box: it is drawn past the measure.
        x += w
      default: break
      }
    }
    line.end = x
    finish(
      &line, annotations: annotations, decorations: &decorations, backgrounds: &backgrounds,
      boxes: &boxes, clip: edges, shaper: &shaper)
  }

  /// Records what piece `p` (`span` its plain fields) of style `ps`, placed at `x` with
  /// `extra` px of letter spacing, adds besides its glyphs: annotations, decorations and
  /// background of text, and the inline boxes around it.
  func record(
    _ p: Int, _ span: PieceSpan, _ ps: PlaceStyle, at x: Double, extra: Double,
    annotations: inout LineAnnotations, decorations: inout LineDecorations,
    backgrounds: inout LineBackgrounds, boxes: inout LineInlineBoxes
  ) {
    if span.isText {
      if ps.annotated {
        // Annotations read the style's writing mode only, not its shift on the line.
        annotations.add(
          pieces[p], style: styles[ps.index], at: x, extra: extra, text: text, fonts: fonts)
      }
      if !ps.decorations.isEmpty {
        decorations.add(ps.decorations, from: x, to: x + span.width + extra)
      }
      backgrounds.add(ps.band, from: x, to: x + span.width + extra)
    }
    if !ps.inlineBoxes.isEmpty {
      boxes.add(ps.inlineBoxes, from: x, to: x + span.width + extra)
    }
  }

  /// The inserted hyphen of style `hs` at `x`: a run of its own on `line`.
  func placeHyphen(
    _ hs: PlaceStyle, at x: Double, on line: inout ComposedLine, shaper: inout Shaper
  ) {
    let choice = hs.glyph.choice
    let hy = shaper.shape(
      ShapeKey(
        text: [0x2D], face: choice.face, smallCaps: false, rtl: false,
        script: HB_SCRIPT_LATIN.rawValue, language: ""))
    guard let g = hy.glyphs.first else { return }
    let builder = GlyphRunBuilder(
      scale: hs.size / fonts.faces[choice.face].upem, baseline: line.baseline - hs.glyph.shift)
    line.runs.append(
      builder.run(
        ShapedText(glyphs: [g], advance: 0), face: choice, size: hs.size, color: hs.glyph.color,
        at: x))
  }

  /// The width letter-spacing glue adds to piece `p` (whose box is item `k`) at `ratio`: the
  /// glue stands just before the box (PieceShaper), and is the line's when it is not before
  /// the line's first item `from` (a line after a break starts at its first box).
  @inline(__always)
  func letterExtra(before k: Int, of p: Int, from: Int, ratio: Double) -> Double {
    guard k > from, case .letter(let q) = sources[k - 1], q == p,
      case .glue(let w, let st, let sh) = items[k - 1]
    else { return 0 }
    return adjusted(w, st, sh, ratio)
  }

  /// An image, formula or inline block: piece `p` placed at `x` on `line` (`color`: its
  /// style's, a formula's ink).
  func placeObject(
    _ p: Int, color: RGBA, at x: Double, into line: inout ComposedLine,
    clip edges: (lo: Double, hi: Double)?
  ) {
    let piece = pieces[p]
    let baseline = line.baseline
    if let m = piece.math {
      line.mathItems += m.box.items(x: x, y: baseline, font: m.font, color: color)
      line.maths.append(
        MathPlacement(
          rect: Rect(
            x: x, y: baseline - m.box.ascent, width: m.box.width,
            height: m.box.ascent + m.box.descent), display: m.display, text: m.text))
    } else if let b = piece.inlineBox {
      line.boxes.add(b, x: x, top: baseline - above(p, piece, in: line))
      line.lastSource = max(line.lastSource, b.end - 1)
    } else if var img = piece.image {
      img.rect.x = x
      img.rect.y = baseline - above(p, piece, in: line)
      if edges.map({ img.rect.x >= $0.lo - 0.5 && img.rect.maxX <= $0.hi + 0.5 }) ?? true {
        line.images.append(img)
        if edges != nil { line.keep(img.rect.x, img.rect.maxX) }
      }
    }
  }

  /// The end of `place`: ruby annotations, the clip of a line that may not wrap, and the
  /// line's fills, backgrounds and inline box paints.
  func finish(
    _ line: inout ComposedLine, annotations: LineAnnotations,
    decorations: inout LineDecorations, backgrounds: inout LineBackgrounds,
    boxes: inout LineInlineBoxes, clip edges: (lo: Double, hi: Double)?, shaper: inout Shaper
  ) {
    let baseline = line.baseline
    let x = line.end
    if !annotations.isEmpty {
      // The measure (the line's text may hang past its end).
      let lo = geometry.lineLeft(first: line.first, index: line.index)
      let hi = lo + geometry.lineWidth(first: line.first, index: line.index)
      line.runs += annotations.runs(
        baseline: baseline, edges: (min(lo, line.start), max(hi, x)), styles: styles,
        fonts: fonts, shaper: &shaper)
    }
    if let edges, line.start < edges.lo - 0.01 || line.end > edges.hi + 0.01 {
      line.clipped = true
      line.cutAtEnd = geometry.rtl ? line.start < edges.lo - 0.01 : line.end > edges.hi + 0.01
      line.start = max(line.start, edges.lo)
      line.end = max(line.start, min(line.end, edges.hi))
      decorations.clip(edges.lo, edges.hi)
      backgrounds.clip(edges.lo, edges.hi)
      boxes.clip(edges.lo, edges.hi)
    }
    line.fills += decorations.fills()
    line.backgrounds = backgrounds.fills()
    if !boxes.isEmpty {
      let painted = boxes.paints(baseline: baseline)
      line.backgrounds = painted.map { .box($0.paint) } + line.backgrounds
      line.inlineBoxes = painted.map { InlineBoxFragment(source: $0.source, rect: $0.paint.rect) }
    }
  }

  /// Text piece `p`'s glyphs (joining the line's last run when they can); `span` its plain
  /// fields. A page that is not drawn stops before the piece (its glyphs) is read.
  @inline(__always)
  func placeGlyphs(
    _ p: Int, _ span: PieceSpan, style rs: GlyphStyle, at x: Double, extra: Double,
    into line: inout ComposedLine, clip edges: (lo: Double, hi: Double)?
  ) {
    // The face is read only when the piece's differs from the style's, and for its scale
    // below: most pieces of a page that is not drawn stop before that.
    let choice: FaceChoice
    if span.face == rs.choice.face {
      choice = rs.choice
    } else {
      let face = fonts.faces[span.face]
      choice = FaceChoice(
        face: span.face, syntheticBold: rs.bold && face.weight < 600,
        syntheticItalic: rs.italic && !face.italic)
    }
    // The last run's fields are read in place: `runs.last` would copy the run (retaining
    // its three arrays) once per piece.
    var joins = false
    if let k = line.runs.indices.last {
      joins =
        line.runs[k].font == span.face && line.runs[k].size == span.size
        && line.runs[k].color == rs.color
        && line.runs[k].syntheticBold == choice.syntheticBold
        && line.runs[k].syntheticItalic == choice.syntheticItalic
        && (line.runs[k].orientation == .upright) == (span.form != .none)
    }
    // The run is filled outside `runs` and appended after, so each append touches one
    // uniquely held array instead of going through `runs[r]`: a new run is made here (it
    // was appended empty, then moved out and back: ~5 M on moby-dick), the run joined is
    // moved out.
    var run: GlyphRun
    if joins {
      if !drawsGlyphs && edges == nil && !line.runs[line.runs.count - 1].glyphs.isEmpty { return }
      run = line.runs.removeLast()
    } else {
      run = GlyphRun(
        font: span.face, size: span.size, color: rs.color, glyphs: [], x: [], y: [],
        syntheticBold: choice.syntheticBold, syntheticItalic: choice.syntheticItalic)
      if span.form != .none { run.orientation = .upright }
    }
    let before = run.glyphs.count
    let scale = span.size / fonts.faces[span.face].upem
    let shaped = pieces[p].shaped
    if before == 0 {
      // A new run: one allocation per array instead of growing from empty (a page that is
      // not drawn keeps exactly these glyphs).
      run.glyphs.reserveCapacity(shaped.glyphs.count)
      run.x.reserveCapacity(shaped.glyphs.count)
      run.y.reserveCapacity(shaped.glyphs.count)
    }
    GlyphRunBuilder(scale: scale, baseline: line.baseline - rs.shift)
      .append(shaped, at: x, extra: extra, to: &run)
    if let edges {
      if x < edges.lo - 0.5 || x + span.width + extra > edges.hi + 0.5 {
        let kept = Self.clip(&run, from: before, shaped, at: x, scale: scale, edges: edges)
        line.keep(kept.lo, kept.hi)
      } else {
        line.keep(x, x + span.width + extra)
      }
    }
    line.runs.append(consume run)
  }

  /// Where a line that may not wrap is cut (nil for text that wraps: emergency breaks keep
  /// it inside the measure).
  func clipEdges(_ line: ComposedLine) -> (lo: Double, hi: Double)? {
    guard geometry.clip else { return nil }
    let lo = geometry.lineLeft(first: line.first, index: line.index)
    let hi = lo + geometry.lineWidth(first: line.first, index: line.index)
    return geometry.rtl
      ? (min(hi, lo + line.endReserve), hi) : (lo, max(lo, hi - line.endReserve))
  }

  /// Drops the glyphs of `run` from index `from` (`shaped`'s, placed from `x`) that do not
  /// lie wholly within the edges (half a pixel of tolerance); returns the extent of the
  /// glyphs kept (empty: lo > hi).
  @discardableResult
  static func clip(
    _ run: inout GlyphRun, from: Int, _ shaped: ShapedText, at x: Double, scale: Double,
    edges: (lo: Double, hi: Double)
  ) -> (lo: Double, hi: Double) {
    var pen = x
    var keep: [Int] = []
    var kept = (lo: Double.infinity, hi: -Double.infinity)
    for (k, g) in shaped.glyphs.enumerated() {
      let end = pen + Double(g.advance) * scale
      if pen >= edges.lo - 0.5 && end <= edges.hi + 0.5 {
        keep.append(from + k)
        kept = (min(kept.lo, pen), max(kept.hi, end))
      }
      pen = end
    }
    guard keep.count < run.glyphs.count - from else { return kept }
    let glyphs = keep.map { run.glyphs[$0] }
    let xs = keep.map { run.x[$0] }
    let ys = keep.map { run.y[$0] }
    run.glyphs.removeSubrange(from...)
    run.x.removeSubrange(from...)
    run.y.removeSubrange(from...)
    run.glyphs += glyphs
    run.x += xs
    run.y += ys
    return kept
  }
}

/// What placing a piece's glyphs reads of its style (`LineComposer.placeGlyphs`), made once
/// per style run: passing the whole `ResolvedStyle` copied it onto the stack for every piece
/// placed (~270 instructions a piece; Benchmarks/paginate-cost.md, session 16).
struct GlyphStyle {
  var choice: FaceChoice
  var color: RGBA
  /// The style asks for a bold weight (≥ 600) and for italics (synthesised when the
  /// piece's face lacks them).
  var bold: Bool
  var italic: Bool
  /// Baseline shift, px, positive up.
  var shift: Double

  init(_ rs: borrowing ResolvedStyle) {
    choice = rs.choice
    color = rs.style.color
    bold = rs.style.fontWeight >= 600
    italic = rs.style.italic
    shift = rs.shift
  }
}
