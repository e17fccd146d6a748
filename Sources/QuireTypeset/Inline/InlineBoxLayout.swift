// Inline blocks (`display: inline-block`, `inline-table`, …): atomic inline-level boxes whose
// content is laid out as a block of its own (CSS 2.1 §9.2.4).
//
// Before the shape stage takes the shaper, each inline block of a paragraph is laid out:
// its used width is `width` when given, else shrink-to-fit (CSS 2.1 §10.3.9:
// min(max(min-content, available), max-content), from the same intrinsic widths tables use,
// TableMeasure.swift), clamped by `min-width`/`max-width`, and never wider than the line
// (an e-reader choice, as for images: nothing is drawn past the text area); its auto
// margins are 0. Its content — one paragraph — is then broken into lines by the ordinary
// inline stages in a nested flow whose entries are taken out again (as a table cell's are),
// with the outer flow's margins, box markers, floats and list marker set aside meanwhile;
// its text is aligned as its CSS says (the reader's `--align justify` is for paragraphs).
// Its height is `height` when given (capped at the page), else its lines' (§10.6.6).
//
// In the line, the box is one piece (shape stage) with the margin box's width, the margin
// box's height split around the baseline: the baseline of its last line box, or its bottom
// margin edge when it has none or `overflow` is not visible (§10.8.1). So Knuth–Plass sees
// one unbreakable box, and the line's height grows to hold it. Compose places it: its
// border/background paint, its glyphs, images and fills move to where the pen is
// (`PlacedInlineBoxes`), its lines join the outer line's entry (the manifest's `lines` keep
// every character of the book) and its block box joins the entry's boxes (the oracle).
//
// Units: page pixels; a `LaidOutInlineBox` is in coordinates of its margin box (0, 0 its
// top-left), moved once when placed. Bounds: nesting is capped at ingest
// (`ChapterBuilder.maxInlineBoxDepth`); each box costs one intrinsic-width pass and one
// layout of its paragraph. Rejected: breaking an inline block's lines in the outer
// paragraph (the box must never split across lines), and negative margins (clamped to 0:
// a box pulled out of its line would overlap its neighbours). Hostile sizes: horizontal
// margins, borders and padding wider than the line shrink in proportion to fit it, the
// content is never wider than the line, and the margin box never taller than the page.

import QuireCore
import QuireIngest

/// An inline block laid out: its margin box's size around the baseline, and its content.
final class LaidOutInlineBox: Sendable {
  /// Margin box width, px.
  let width: Double
  /// Baseline to the margin box's top and bottom, px.
  let ascent: Double
  let descent: Double
  /// Paint and content, in the margin box's coordinates.
  let items: [DisplayItem]
  let lines: [LineBox]
  let blockBoxes: [BlockBox]
  /// The source offset just after its text.
  let end: Int

  init(
    width: Double, ascent: Double, descent: Double, items: [DisplayItem], lines: [LineBox],
    blockBoxes: [BlockBox], end: Int
  ) {
    self.width = width
    self.ascent = ascent
    self.descent = descent
    self.items = items
    self.lines = lines
    self.blockBoxes = blockBoxes
    self.end = end
  }
}

/// The inline blocks of one line, moved to where compose put them (x page px, y from the
/// line's top).
struct PlacedInlineBoxes {
  var items: [DisplayItem] = []
  var lines: [LineBox] = []
  var blockBoxes: [BlockBox] = []
  var isEmpty: Bool { items.isEmpty && lines.isEmpty }

  mutating func add(_ b: LaidOutInlineBox, x: Double, top: Double) {
    for item in b.items { items.append(item.offset(dx: x, dy: top)) }
    for var line in b.lines {
      line.rect.x += x
      line.rect.y += top
      lines.append(line)
    }
    for var box in b.blockBoxes {
      box.rect.x += x
      blockBoxes.append(box)
    }
  }

  /// Adds the boxes to their line's flow entry (after the line's own items and line box).
  func attach(to entry: inout FlowEntry) {
    entry.items += items
    entry.lines += lines
    entry.blockBoxes += blockBoxes
  }
}

extension ChapterFlow {
  /// Lays out every inline block of a paragraph, by scalar index; `available` is the
  /// paragraph's measure.
  mutating func layoutInlineBoxes(_ text: CollectedText, available: Double)
    -> [Int: LaidOutInlineBox]
  {
    var out: [Int: LaidOutInlineBox] = [:]
    for (i, ib) in text.inlineBoxes.sorted(by: { $0.key < $1.key }) {
      out[i] = layoutInlineBox(ib, available: available)
    }
    return out
  }

  /// One inline block (see the file comment).
  mutating func layoutInlineBox(_ ib: InlineBlock, available: Double) -> LaidOutInlineBox {
    let block = ib.block
    let st = block.style
    func side(_ l: Length) -> Double { max(0, px(l, of: available)) }
    func border(_ s: BorderSide) -> Double { min(1000, max(0, px(s.usedWidth, of: available))) }
    let b = block.box.border
    var (bl, br) = (border(b.left), border(b.right))
    var (pl, pr) = (side(st.padding.left), side(st.padding.right))
    var ml = block.box.marginLeftAuto ? 0 : side(st.margin.left)
    var mr = block.box.marginRightAuto ? 0 : side(st.margin.right)
    var (mt, bt, pt) = (side(st.margin.top), border(b.top), side(st.padding.top))
    var (pb, bb, mb) = (side(st.padding.bottom), border(b.bottom), side(st.margin.bottom))
    // Margins, borders and padding wider than the line shrink in proportion to fit it.
    let extras = ml + bl + pl + pr + br + mr
    if extras > available {
      let k = available / extras
      (ml, bl, pl, pr, br, mr) = (ml * k, bl * k, pl * k, pr * k, br * k, mr * k)
    }
    // …and so do vertical ones taller than the page.
    let vertical = mt + bt + pt + pb + bb + mb
    if vertical > pageHeight {
      let k = pageHeight / vertical
      (mt, bt, pt, pb, bb, mb) = (mt * k, bt * k, pt * k, pb * k, bb * k, mb * k)
    }
    var inner = block
    inner.box = BoxStyle()
    inner.style.margin = .zero
    inner.style.padding = .zero
    let width = inlineBoxWidth(
      block, inner: inner, edges: bl + pl + pr + br, containing: available,
      room: max(0, available - ml - mr - bl - pl - pr - br))
    let room = max(0, pageHeight - mt - bt - pt - pb - bb - mb)
    let content = inlineBoxContent(inner, width: width, limit: room)
    if content.cut {
      notes.limits.add(
        1, offset: ib.location.offset, what: "an inline block taller than the page was cut")
    }
    let contentHeight = min(
      inlineBoxHeight(block, lines: content.height, available: available), room)
    let (dx, dy) = (ml + bl + pl, mt + bt + pt)
    var items: [DisplayItem] = []
    if var paint = boxPaint(block, containing: available) {
      paint.rect = Rect(
        x: ml, y: mt, width: bl + pl + width + pr + br, height: bt + pt + contentHeight + pb + bb)
      (paint.left.width, paint.right.width) = (bl, br)
      (paint.top.width, paint.bottom.width) = (bt, bb)
      paint.clippedItems = block.box.clipsOverflow ? content.items.count : 0
      items.append(.box(paint))
    }
    items += content.items.map { $0.offset(dx: dx, dy: dy) }
    let height = mt + bt + pt + contentHeight + pb + bb + mb
    var baseline = height
    if let last = content.baseline, !block.box.clipsOverflow { baseline = dy + last }
    return LaidOutInlineBox(
      width: max(0, ml + bl + pl + width + pr + br + mr), ascent: baseline,
      descent: height - baseline,
      items: items,
      lines: content.lines.map {
        var l = $0
        l.rect.x += dx
        l.rect.y += dy
        return l
      },
      blockBoxes: content.blockBoxes.map {
        var box = $0
        box.rect.x += dx
        return box
      }, end: ib.end)
  }

  /// The used content width: `width`, else shrink-to-fit in `room`; then `max-width` and
  /// `min-width`; never more than `room`. `edges`: horizontal borders and padding;
  /// percentages are of the `containing` width.
  mutating func inlineBoxWidth(
    _ block: Block, inner: Block, edges: Double, containing: Double, room: Double
  ) -> Double {
    let box = block.box
    func content(_ l: Length) -> Double {
      let v = px(l, of: containing)
      return max(0, box.boxSizing == .borderBox ? v - edges : v)
    }
    var w: Double
    if let declared = box.width {
      w = content(declared)
    } else {
      let intrinsic = intrinsicWidths(inner, depth: 0)
      w = min(max(intrinsic.min, room), intrinsic.max)
    }
    if let maxW = box.maxWidth { w = min(w, content(maxW)) }
    if let minW = box.minWidth { w = max(w, content(minW)) }
    return min(max(0, w), room)
  }

  /// `height` (lengths; `min-height`/`max-height` applied) or the lines' height, capped at
  /// the page.
  func inlineBoxHeight(_ block: Block, lines: Double, available: Double) -> Double {
    let box = block.box
    func length(_ l: Length?) -> Double? {
      guard case .rem = l, let l else { return nil }
      return max(0, px(l, of: available))
    }
    var h = length(box.height) ?? lines
    if let maxH = length(box.maxHeight) { h = min(h, maxH) }
    if let minH = length(box.minHeight) { h = max(h, minH) }
    return min(h, pageHeight)
  }

  /// The content of an inline block as lines of a nested flow `width` px wide: its items,
  /// line boxes and block boxes from the content box's top-left, its height and the
  /// baseline of its last line. Lines past `limit` px are left out (`cut`): an atomic box
  /// cannot continue on the next page.
  mutating func inlineBoxContent(_ inner: Block, width: Double, limit: Double)
    -> (
      items: [DisplayItem], lines: [LineBox], blockBoxes: [BlockBox], height: Double,
      baseline: Double?, cut: Bool
    )
  {
    let saved = (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker)
    let savedBoxes = (boxFlow.pendingOpens, boxFlow.flowY, lastLocation)
    let savedFloats = floatArea
    (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker) = (
      [], 0, 0, 0, false, nil
    )
    boxFlow.pendingOpens = []
    floatArea = FloatArea()
    // A hair of slack: a box exactly its min-content wide must not break that word.
    inlineBoxNesting += 1
    if !inner.inlines.isEmpty { paragraph(inner, left: 0, right: width + 0.01) }
    inlineBoxNesting -= 1
    var items: [DisplayItem] = []
    var lines: [LineBox] = []
    var blockBoxes: [BlockBox] = []
    var y = 0.0
    var baseline: Double? = nil
    var cut = false
    for e in entries {
      if y + e.spaceBefore + e.height > limit + 0.01 {
        cut = true
        break
      }
      y += e.spaceBefore
      items += e.items.map { $0.offset(dy: y) }
      for var l in e.lines {
        l.rect.y += y
        lines.append(l)
      }
      blockBoxes += e.blockBoxes
      if let b = e.baseline { baseline = y + b }
      y += e.height
    }
    (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker) = saved
    (boxFlow.pendingOpens, boxFlow.flowY, lastLocation) = savedBoxes
    floatArea = savedFloats
    return (items, lines, blockBoxes, y, baseline, cut)
  }
}

extension DisplayItem {
  /// The item moved right by `dx` and down by `dy` (`shift(dx:dy:)` on a copy).
  func offset(dx: Double, dy: Double) -> DisplayItem {
    var moved = self
    moved.shift(dx: dx, dy: dy)
    return moved
  }
}
