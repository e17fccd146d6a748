// Inline blocks (`display: inline-block`, `inline-table`, …): atomic inline-level boxes whose
// content is laid out as a block of its own (CSS 2.1 §9.2.4).
//
// Before the shape stage takes the shaper, each inline block of a paragraph is laid out:
// its used width is `width` when given, else shrink-to-fit (CSS 2.1 §10.3.9:
// min(max(min-content, available), max-content), from the same intrinsic widths tables use,
// TableMeasure.swift), clamped by `min-width`/`max-width`, and never wider than the line
// (an e-reader choice, as for images: nothing is drawn past the text area); its auto
// margins are 0. Its content is then laid out in a nested flow whose entries are taken out
// again (as a table cell's are), with the outer flow's margins, box markers, floats and list
// marker set aside meanwhile: one paragraph is broken into lines by the ordinary inline
// stages; blocks (paragraphs, lists, tables, images, nested boxes — kept by ingest) by the
// block machinery, their borders and backgrounds painted by the page fragmenter over that
// one piece, as a floated block's are (FloatBlocks.swift); the box is a block formatting
// context, so its children's margins stay inside it. Its text is aligned as its CSS says
// (the reader's `--align justify` is for paragraphs). Its height is `height` when given
// (capped at the page), else its content's (§10.6.6).
//
// `inline-table` (§17.2) with table parts inside is a table: laid out by the table
// machinery (automatic layout, shrink-to-fit) in a nested flow, its margin box around the
// table's border box, its baseline the first row's (§10.8.1).
//
// In the line, the box is one piece (shape stage) with the margin box's width, the margin
// box's height split around the baseline: the baseline of its last line box (in its blocks,
// a nested table's row counting as one), or its bottom margin edge when it has none or
// `overflow` is not visible (§10.8.1). So Knuth–Plass sees
// one unbreakable box, and the line's height grows to hold it. Compose places it: its
// border/background paint, its glyphs, images and fills move to where the pen is
// (`PlacedInlineBoxes`), its lines join the outer line's entry (the manifest's `lines` keep
// every character of the book) and its block box joins the entry's boxes (the oracle).
//
// Units: page pixels; a `LaidOutInlineBox` is in coordinates of its margin box (0, 0 its
// top-left), moved once when placed. Bounds: nesting is capped at ingest
// (`ChapterBuilder.maxInlineBoxDepth` boxes, `maxBoxBlockDepth` blocks inside them); each
// box costs one intrinsic-width pass and one layout of its content: a paragraph shaped
// only to be measured (`measuringWidths`) sizes its inline blocks without laying their
// content out, else a box nested k deep would be laid out 2^k times. Rejected: breaking an
// inline block's lines in the outer paragraph (the box must never split across lines), and
// negative margins (clamped to 0: a box pulled out of its line would overlap its
// neighbours). Hostile sizes: horizontal
// margins, borders and padding wider than the line shrink in proportion to fit it, the
// content is never wider than the line, and the margin box never taller than the page.
// A box whose content is taller than that is cut as an overflow cut is (OverflowCut.swift;
// CSS Fragmentation 3 §4.4: monolithic content taller than the page is clipped at it), with
// one note: what starts above the cut is kept — the lines that fit, and of a line holding a
// nested box that was cut in turn, that box's lines — and an invisible clip box
// (`InlineBoxContent.clip`) hides what lies below. Rejected: leaving out the entry that
// crosses the cut, as this did before — the line that holds a nested page-tall box always
// crosses it (its strut's descent), so the nested box's text vanished from the page.

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
  /// Its images, for the manifest (they are drawn by `items`).
  let images: [ImagePlacement]
  /// The source offset just after its text.
  let end: Int

  init(
    width: Double, ascent: Double, descent: Double, content: InlineBoxContent, end: Int
  ) {
    self.width = width
    self.ascent = ascent
    self.descent = descent
    self.items = content.items
    self.lines = content.lines
    self.blockBoxes = content.blockBoxes
    self.images = content.images
    self.end = end
  }

  /// A box sized for an intrinsic-width measure: its margin box's width, no content.
  static func measured(width: Double, end: Int) -> LaidOutInlineBox {
    LaidOutInlineBox(width: width, ascent: 0, descent: 0, content: InlineBoxContent(), end: end)
  }
}

/// What an inline block holds, laid out (from its content box's top-left, then moved to its
/// margin box's).
struct InlineBoxContent {
  var items: [DisplayItem] = []
  var lines: [LineBox] = []
  var blockBoxes: [BlockBox] = []
  var images: [ImagePlacement] = []
  var height = 0.0
  /// An inline table's border box width (the table machinery's), px.
  var width = 0.0
  /// The baseline that aligns the box in its line (§10.8.1), from the content top.
  var baseline: Double? = nil
  /// Content past the height limit was cut (`fit`).
  var cut = false

  /// An invisible box that clips the `items` after it to `rect`: what a cut box holds below
  /// its cut is not drawn (the page box clips a monolithic box taller than the page, CSS
  /// Fragmentation 3 §4.4; the box itself is capped at the page).
  static func clip(_ rect: Rect, items: Int) -> BoxPaint {
    var paint = BoxPaint(rect: rect)
    paint.clippedItems = items
    return paint
  }

  /// The part of entry `e` that is drawn when it starts `y` px below the content top and the
  /// content is cut `limit` px below it (an atomic box cannot continue on the next page):
  /// `e` whole when it fits; cut at the limit when it crosses it (`FlowEntry.cut(at:)`: a
  /// line holding a nested inline block taller than the room keeps the lines of that box
  /// that start above the cut); nil when it starts at or below the limit. Sets `cut` when
  /// anything is left out.
  mutating func fit(_ e: FlowEntry, at y: Double, limit: Double) -> FlowEntry? {
    let top = y + e.spaceBefore
    if top + e.height <= limit + 0.01 { return e }
    cut = true
    return top < limit - 0.01 ? e.cut(at: limit - top) : nil
  }

  /// Gives the block boxes that no inner inline block placed their x inside this box's
  /// content box (`BlockBox.inlineX`; the content is still at x 0).
  mutating func markInlineBox() {
    for i in blockBoxes.indices where blockBoxes[i].inlineX == nil {
      blockBoxes[i].inlineX = blockBoxes[i].rect.x
    }
  }

  /// Moves the content by (`dx`, `dy`); block boxes move across only (their height comes
  /// from their lines on the page).
  mutating func shift(dx: Double, dy: Double) {
    for i in items.indices { items[i].shift(dx: dx, dy: dy) }
    for i in lines.indices {
      lines[i].rect.x += dx
      lines[i].rect.y += dy
    }
    for i in images.indices {
      images[i].rect.x += dx
      images[i].rect.y += dy
    }
    for i in blockBoxes.indices { blockBoxes[i].rect.x += dx }
  }
}

/// The inline blocks of one line, moved to where compose put them (x page px, y from the
/// line's top).
struct PlacedInlineBoxes {
  var items: [DisplayItem] = []
  var lines: [LineBox] = []
  var blockBoxes: [BlockBox] = []
  var images: [ImagePlacement] = []
  var isEmpty: Bool { items.isEmpty && lines.isEmpty && images.isEmpty }

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
    for var image in b.images {
      image.rect.x += x
      image.rect.y += top
      images.append(image)
    }
  }

  /// Adds the boxes to their line's flow entry (after the line's own items and line box).
  func attach(to entry: inout FlowEntry) {
    entry.items += items
    entry.lines += lines
    entry.blockBoxes += blockBoxes
    entry.images += images
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
    if case .table = ib.block.kind, !ib.block.children.isEmpty {
      return layoutInlineTable(ib, available: available)
    }
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
    let marginWidth = max(0, ml + bl + pl + width + pr + br + mr)
    if measuringWidths { return .measured(width: marginWidth, end: ib.end) }
    let room = max(0, pageHeight - mt - bt - pt - pb - bb - mb)
    var content = inlineBoxContent(inner, width: width, limit: room)
    if content.cut {
      notes.limits.add(
        1, offset: ib.location.offset, what: "an inline block taller than the page was cut")
    }
    let contentHeight = min(
      inlineBoxHeight(block, lines: content.height, available: available), room)
    let (dx, dy) = (ml + bl + pl, mt + bt + pt)
    var items: [DisplayItem] = []
    let rect = Rect(
      x: ml, y: mt, width: bl + pl + width + pr + br, height: bt + pt + contentHeight + pb + bb)
    if var paint = boxPaint(block, containing: available) {
      paint.rect = rect
      (paint.left.width, paint.right.width) = (bl, br)
      (paint.top.width, paint.bottom.width) = (bt, bb)
      paint.clippedItems = block.box.clipsOverflow || content.cut ? content.items.count : 0
      items.append(.box(paint))
    } else if content.cut {
      items.append(.box(InlineBoxContent.clip(rect, items: content.items.count)))
    }
    content.markInlineBox()
    content.shift(dx: dx, dy: dy)
    content.items = items + content.items
    let height = mt + bt + pt + contentHeight + pb + bb + mb
    var baseline = height
    if let last = content.baseline, !block.box.clipsOverflow { baseline = dy + last }
    return LaidOutInlineBox(
      width: marginWidth, ascent: baseline, descent: height - baseline, content: content,
      end: ib.end)
  }

  /// An `inline-table` that holds table parts (CSS 2.1 §17.2): laid out by the table
  /// machinery in a nested flow (automatic table layout is shrink-to-fit already, as for a
  /// floated table), its margin box around the table's border box, its baseline the first
  /// row's (§10.8.1: the first line of its first row's cells), or its bottom margin edge
  /// when the first row has no text. Margins (auto and negative ones count as 0) never take
  /// more than half the line or the page.
  mutating func layoutInlineTable(_ ib: InlineBlock, available: Double) -> LaidOutInlineBox {
    var inner = ib.block
    let st = inner.style
    func side(_ l: Length, auto: Bool = false) -> Double { auto ? 0 : max(0, px(l, of: available)) }
    var (ml, mr) = (
      side(st.margin.left, auto: inner.box.marginLeftAuto),
      side(st.margin.right, auto: inner.box.marginRightAuto)
    )
    var (mt, mb) = (side(st.margin.top), side(st.margin.bottom))
    if ml + mr > available / 2 {
      let k = available / 2 / (ml + mr)
      (ml, mr) = (ml * k, mr * k)
    }
    if mt + mb > pageHeight / 2 {
      let k = pageHeight / 2 / (mt + mb)
      (mt, mb) = (mt * k, mb * k)
    }
    inner.style.margin = .zero
    (inner.box.marginLeftAuto, inner.box.marginRightAuto) = (false, false)
    if case .percent(let p)? = inner.box.width {
      // Of the line, not of the room its margins leave.
      inner.box.width = .rem(max(0, p) / 100 * available / options.fontSize)
    }
    if measuringWidths {
      // The table's own shrink-to-fit width (automatic layout, §17.5.2) in the line.
      let w = intrinsicWidths(inner, depth: 0)
      let used = min(max(w.min, available - ml - mr), w.max)
      return .measured(width: min(available, ml + max(0, used) + mr), end: ib.end)
    }
    var content = inlineBoxBlocks(
      [inner], width: max(1, available - ml - mr), limit: max(0, pageHeight - mt - mb),
      table: true)
    if content.cut {
      notes.limits.add(
        1, offset: ib.location.offset, what: "an inline block taller than the page was cut")
    }
    content.markInlineBox()
    content.shift(dx: ml, dy: mt)
    if content.cut {
      let rect = Rect(x: ml, y: mt, width: content.width, height: content.height)
      content.items.insert(.box(InlineBoxContent.clip(rect, items: content.items.count)), at: 0)
    }
    let height = mt + content.height + mb
    let baseline = content.baseline.map { mt + $0 } ?? height
    return LaidOutInlineBox(
      width: min(available, ml + content.width + mr), ascent: baseline,
      descent: height - baseline, content: content, end: ib.end)
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

  /// The content of an inline block `width` px wide, from the content box's top-left: its
  /// blocks (`inlineBoxBlocks`), or its one paragraph as lines of a nested flow. Lines past
  /// `limit` px are cut (`fit`): an atomic box cannot continue on the next page.
  mutating func inlineBoxContent(_ inner: Block, width: Double, limit: Double)
    -> InlineBoxContent
  {
    if !inner.children.isEmpty {
      // A hair of slack: a box exactly its min-content wide must not break that word.
      return inlineBoxBlocks(inner.children, width: width + 0.01, limit: limit, table: false)
    }
    let saved = (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker)
    let savedBoxes = (boxFlow.pendingOpens, boxFlow.flowY, lastLocation)
    let savedFloats = floatArea
    (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker) = (
      [], 0, 0, 0, false, nil
    )
    boxFlow.pendingOpens = []
    floatArea = FloatArea()
    inlineBoxNesting += 1
    if !inner.inlines.isEmpty { paragraph(inner, left: 0, right: width + 0.01) }
    inlineBoxNesting -= 1
    var out = InlineBoxContent()
    var y = 0.0
    for whole in entries {
      guard let e = out.fit(whole, at: y, limit: limit) else { break }
      y += e.spaceBefore
      out.items += e.items.map { $0.offset(dy: y) }
      for var l in e.lines {
        l.rect.y += y
        out.lines.append(l)
      }
      out.blockBoxes += e.blockBoxes
      if let b = e.baseline { out.baseline = y + b }
      y += e.height
    }
    out.height = y
    (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker) = saved
    (boxFlow.pendingOpens, boxFlow.flowY, lastLocation) = savedBoxes
    floatArea = savedFloats
    return out
  }

  /// An inline block's blocks (or an inline table, `table`) laid out by the block machinery
  /// in a nested flow `width` px wide — margins, borders, padding, backgrounds, lists,
  /// tables, floats — whose entries are taken out again and stacked from y 0, their box
  /// markers painted by the page fragmenter over that one piece (as a floated block's,
  /// FloatBlocks.swift). The inline block is a block formatting context: its children's
  /// margins stay inside it. Its baseline is its last line box's (a table's: its first
  /// row's). Entries past `limit` px are cut (`fit`).
  mutating func inlineBoxBlocks(_ blocks: [Block], width: Double, limit: Double, table: Bool)
    -> InlineBoxContent
  {
    let location = lastLocation
    var right = 0.0
    inlineBoxNesting += 1
    let nested = nestedFlow {
      if table, let first = blocks.first {
        right = $0.tableBlock(first, left: 0, right: width, depth: 0)
      } else {
        $0.layout(blocks: blocks, left: 0, right: width, depth: 0)
      }
      $0.flushMargins()
    }
    inlineBoxNesting -= 1
    lastLocation = location
    var out = InlineBoxContent()
    var kept: [FlowEntry] = []
    var y = 0.0
    for whole in nested.entries {
      guard let e = out.fit(whole, at: y, limit: limit) else { break }
      y += e.spaceBefore
      if table {
        if out.baseline == nil, let b = e.firstBaseline { out.baseline = y + b }
      } else if e.height > 0, let b = e.baseline ?? e.firstBaseline {
        // A line's baseline, or a nested table row's (its cells' first lines).
        out.baseline = y + b
      }
      y += e.height
      kept.append(e)
    }
    let c = FloatContent(entries: kept, boxes: boxFlow.boxes)
    (out.items, out.lines, out.images, out.blockBoxes) = (c.items, c.lines, c.images, c.blockBoxes)
    out.height = out.cut ? y : max(y, min(limit, nested.height))
    out.width = min(width, right)
    return out
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

extension FlowEntry {
  /// The entry cut `room` px below its top, as an overflow cut cuts a crossing entry
  /// (OverflowCut.swift): it ends on the cut; its line boxes, block boxes, images, formulas
  /// and inline box fragments that start at or below the cut are left out (they are not
  /// drawn) and the line boxes crossing it end on it (the manifest lists what is seen); its
  /// display items stay, and the inline block's clip (`InlineBoxContent.clip`) hides what
  /// lies below.
  func cut(at room: Double) -> FlowEntry {
    var e = self
    let below = room - 0.01
    e.height = max(0, room)
    e.lines = lines.compactMap { line in
      guard line.rect.y < below else { return nil }
      var l = line
      l.rect.height = min(l.rect.height, room - l.rect.y)
      return l
    }
    e.blockBoxes.removeAll { $0.rect.y >= below }
    e.images.removeAll { $0.rect.y >= below }
    e.maths.removeAll { $0.rect.y >= below }
    e.inlineBoxes.removeAll { $0.rect.y >= below }
    if let b = baseline, b > room { e.baseline = nil }
    return e
  }
}
