// Floats that hold text (CSS 2.1 §9.5, §10.3.5): a floated `div`, `aside`, `figure`, `p`,
// `blockquote`… (block-level) or a floated `span` or other inline element (blockified at
// ingest into an `InlineBlock` whose box floats, e.g. a poem's line numbers).
//
// Width. `width` when given, else shrink-to-fit (§10.3.5): min(max(preferred minimum,
// available), preferred), from the intrinsic widths tables and inline blocks use
// (TableMeasure.swift); `min-width`/`max-width` then apply as for any block (§10.3.3 via
// `horizontal`). The float's margins never collapse (§8.3.1) and count in its margin box.
//
// Layout. A floated block is laid out by the ordinary block machinery (`layout(_:…)`:
// margins, borders, padding, backgrounds, lists, nested floats) in a nested flow at x 0
// … its margin box width, exactly as an inline block's content is (InlineBoxLayout.swift);
// its entries are then taken out again and merged into one zero-height float entry, their
// box markers turned into paint items by the page fragmenter run over that one piece
// (`BoxFragmenter`), so the float's backgrounds and borders are painted exactly as in-flow
// ones. The float is then placed by `FloatArea.place` (§9.5.1) and the lines beside it wrap
// as for a floated image (FloatLayout.swift): the float and its neighbours form one
// keep-together group, so a float taller than what is left of the page starts the next page
// with the lines beside it.
//
// Taller than a page. A float may not split across pages (its entry is one piece), so a
// float whose margin box is taller than the page's text area is set in the flow instead, at
// its float position across (left or right edge) and its shrink-to-fit width: its entries
// go into the flow as they are and paginate like any block; nothing is cut and no text is
// lost. (Chromium fragments such a float; an e-reader page has no room beside it anyway.)
//
// An inline float (a floated `span`, a floated inline image) is laid out here as an inline
// block (shrink-to-fit, its own paragraph) and placed at the line holding its source, the
// paragraph broken again from there around it (InlineFloats.swift, CSS 2.1 §9.5.1 rule 6).
//
// Tables. A floated table (`floatedTable`) is laid out by the table machinery in a nested
// flow at the available width — automatic table layout is already shrink-to-fit — and its
// margin box ends at its border box's right edge; it is then placed like any float. A
// floated block that holds a table or a list takes its widest child's width (intrinsic
// widths count a table's columns, borders and spacing, and a list's indent).
//
// Drop caps. A `::first-letter` with `float` (its punctuation included, CSS Pseudo 4 §2.1)
// is a floating inline block of its own (ingest), so a drop cap is an inline float at the
// paragraph's start. `initial-letter: N M` (and `-webkit-initial-letter`, CSS Inline 3 §7)
// floats it left when it does not float, sizes it so its cap height spans N − 1 line heights
// plus the paragraph's cap height (OS/2 sCapHeight), puts its baseline on the Mth line's
// baseline and makes the float M lines tall; N and M are capped at `InitialLetter.maxLines`.
// A raised initial (M < N) stands above the paragraph's top (browsers move the first line
// down instead; not done).
//
// Reading order. An inline float's line boxes move after the paragraph line its source sits
// in when that line is beside it (`moveFloatLines`), so text stays in source order on the
// page.
//
// Bounds. At most `FloatArea.maxFloats` floats beside the flow (the rest stay in the flow),
// floats nested inside floats at most `maxFloatNesting` deep (deeper ones are laid out in
// the flow of their float), and each float is laid out once: linear in the book. A float
// taller than a page (text or table) is set in the flow as above, a table's repeated header
// moved with it.

import QuireCore
import QuireIngest

extension ChapterFlow {
  /// Floats inside floats lay out at most this deep; deeper floats stay in their float's flow.
  static let maxFloatNesting = 8

  /// Whether a block of `kind` floats as a box of text (images and tables lay themselves out).
  static func floatsAsTextBlock(_ block: Block) -> Bool {
    guard block.box.float != .none else { return false }
    switch block.kind {
    case .image, .table, .tableRow, .tableCell, .rule: return false
    default: return true
    }
  }

  /// Lays out a floated block of text (see the file comment); false when it is left to the
  /// flow (float area full, nested too deep).
  mutating func floatedTextBlock(_ block: Block, left: Double, right: Double, depth: Int) -> Bool {
    guard !floatArea.isFull, floatNesting < Self.maxFloatNesting else { return false }
    let avail = max(1, right - left)
    var inner = block
    inner.box.float = .none
    let marginBox = floatMarginBoxWidth(&inner, available: avail)
    let firstBox = boxFlow.boxes.count
    let nested = nestedFlow {
      $0.layout(inner, left: 0, right: marginBox, depth: depth)
      $0.flushMargins()
    }
    placeNested(
      nested, width: marginBox, block: block, left: left, right: right, boxesFrom: firstBox)
    return true
  }

  /// Lays out a floated table (CSS 2.1 §9.5, §17.5.2): its automatic width is already
  /// shrink-to-fit (min(max(min-content, available), max-content) of its columns, or its
  /// `width`, a percentage of the float's containing block), so it is laid out in a nested
  /// flow at the available width and its margin box ends at its border box's right edge plus
  /// its right margin. Auto and negative margins count as 0 (§10.3.5); `caption-side`,
  /// borders, header rows and `break-inside` are the table's as in the flow. False when it is
  /// left to the flow (float area full, nested too deep).
  mutating func floatedTable(_ block: Block, left: Double, right: Double, depth: Int) -> Bool {
    guard !floatArea.isFull, floatNesting < Self.maxFloatNesting else { return false }
    let avail = max(1, right - left)
    var inner = block
    inner.box.float = .none
    let st = block.style
    let ml = inner.box.marginLeftAuto ? 0 : max(0, px(st.margin.left, of: avail))
    let mr = inner.box.marginRightAuto ? 0 : max(0, px(st.margin.right, of: avail))
    (inner.box.marginLeftAuto, inner.box.marginRightAuto) = (false, false)
    inner.style.margin.left = .rem(ml / options.fontSize)
    inner.style.margin.right = .rem(mr / options.fontSize)
    let firstBox = boxFlow.boxes.count
    var tableRight = 0.0
    let nested = nestedFlow {
      tableRight = $0.tableBlock(inner, left: 0, right: avail, depth: depth)
      $0.flushMargins()
    }
    let marginBox = min(avail, max(1, tableRight + mr))
    placeNested(
      nested, width: marginBox, block: block, left: left, right: right, boxesFrom: firstBox)
    return true
  }

  /// Places what a nested flow laid out for a floated block as one float of margin box width
  /// `width`, or sets it in the flow when it is taller than a page (see the file comment).
  private mutating func placeNested(
    _ nested: (entries: [FlowEntry], height: Double), width: Double, block: Block, left: Double,
    right: Double, boxesFrom firstBox: Int
  ) {
    if nested.height > pageHeight + 0.01 {
      setInFlow(
        nested.entries, side: block.box.float, width: width, left: left, right: right,
        boxesFrom: firstBox)
      return
    }
    let piece = FloatPiece(
      width: width, height: nested.height,
      content: FloatContent(entries: nested.entries, boxes: boxFlow.boxes))
    placeFloat(
      piece, side: block.box.float, start: block.location, end: lastLocation, left: left,
      right: right)
  }

  /// The float's margin box width in `available` px, and `inner` given that used width
  /// (shrink-to-fit when its `width` is auto, §10.3.5) as a fixed `width`. Auto margins are
  /// 0 (§10.3.5), negative ones count as 0, and the content is never wider than the room
  /// the margins, borders and padding leave (nothing is drawn past the text area).
  mutating func floatMarginBoxWidth(_ inner: inout Block, available: Double) -> Double {
    let st = inner.style
    let ml = inner.box.marginLeftAuto ? 0 : max(0, px(st.margin.left, of: available))
    let mr = inner.box.marginRightAuto ? 0 : max(0, px(st.margin.right, of: available))
    var h = horizontal(inner, containing: available)
    let edges = h.borderLeft + h.paddingLeft + h.paddingRight + h.borderRight
    let sizing = inner.box.boxSizing == .borderBox ? edges : 0
    let room = max(0, available - ml - mr - edges)
    if inner.box.width == nil {
      let intrinsic = intrinsicWidths(inner, depth: 0)
      let extras = horizontalExtras(inner)
      let fit = min(max(intrinsic.min - extras, room), intrinsic.max - extras)
      inner.box.width = .rem((max(0, fit) + sizing) / options.fontSize)
      h = horizontal(inner, containing: available)  // min-width, max-width
    }
    let content = min(room, max(0, h.contentWidth))
    inner.box.width = .rem((content + sizing) / options.fontSize)
    (inner.box.minWidth, inner.box.maxWidth) = (nil, nil)
    (inner.box.marginLeftAuto, inner.box.marginRightAuto) = (false, false)
    inner.style.margin.left = .rem(ml / options.fontSize)
    inner.style.margin.right = .rem(mr / options.fontSize)
    return min(available, ml + edges + content + mr)
  }

  /// Runs `body` in a nested flow (no entries, margins, pending box markers or floats of the
  /// outer flow) and hands back its entries and their total height; the outer flow's state
  /// is put back, the block numbers, boxes and location the nested layout advanced are kept.
  mutating func nestedFlow(_ body: (inout ChapterFlow) -> Void)
    -> (entries: [FlowEntry], height: Double)
  {
    let saved = (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker)
    let savedBoxes = (boxFlow.pendingOpens, boxFlow.flowY)
    let savedFloats = floatArea
    (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker) = (
      [], 0, 0, 0, false, nil
    )
    (boxFlow.pendingOpens, boxFlow.flowY) = ([], 0)
    floatArea = FloatArea()
    floatNesting += 1
    body(&self)
    if !floatArea.isEmpty { endFloats() }
    floatNesting -= 1
    let height = boxFlow.flowY + max(0, pendingSpace)
    let out = entries
    (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker) = saved
    (boxFlow.pendingOpens, boxFlow.flowY) = savedBoxes
    floatArea = savedFloats
    return (out, height)
  }

  /// A float too tall for a page: its entries go into the flow at the float's edge.
  private mutating func setInFlow(
    _ nested: [FlowEntry], side: FloatSide, width: Double, left: Double, right: Double,
    boxesFrom firstBox: Int
  ) {
    let dx = side == .right ? max(left, right - width) : left
    for id in firstBox..<boxFlow.boxes.count { boxFlow.boxes[id].x += dx }
    var headers: [ObjectIdentifier: TableHeaderRepeat] = [:]
    for var e in nested {
      pendingSpace += e.spaceBefore
      e.spaceBefore = 0
      let own = e.opens
      e.opens = []
      e.shift(dx: dx)
      if let h = e.repeatHeader {
        // A table's header rows repeat at its own x on the pages it continues on.
        let moved =
          headers[ObjectIdentifier(h)]
          ?? TableHeaderRepeat(items: h.items.map { $0.offset(dx: dx, dy: 0) }, height: h.height)
        headers[ObjectIdentifier(h)] = moved
        e.repeatHeader = moved
      }
      append(e)
      entries[entries.count - 1].opens += own
    }
  }

  /// Places a laid-out float of margin box `piece` on `side` and appends its entry.
  mutating func placeFloat(
    _ piece: FloatPiece, side: FloatSide, start: Location, end: Location, left: Double,
    right: Double
  ) {
    let placed = floatArea.place(
      side: side, width: piece.width, height: piece.height, top: nextFlowTop, left: left,
      right: right)
    insertFloat(piece, at: placed, start: start, end: end)
  }

  /// Appends the zero-height entry of a float whose margin box is `placed` (its content hangs
  /// below the flow's bottom) and keeps the float beside the flow.
  mutating func insertFloat(
    _ piece: FloatPiece, at placed: PlacedFloat, start: Location, end: Location
  ) {
    var e = FlowEntry(spaceBefore: 0, height: 0, start: start, end: end)
    piece.content.fill(&e, dx: placed.left, dy: placed.top - boxFlow.flowY)
    floatArea.add(placed, group: entries.count)
    e.group = floatArea.group
    e.avoidBreakAfter = true
    entries.append(e)
    lastLocation = end
  }

  /// Lays out a floated inline element (an `InlineBlock` whose box floats) of `paragraph`
  /// as an inline block: its margin box and content, to be placed at its line
  /// (InlineFloats.swift); nil when floats are nested too deep.
  mutating func floatInlineBox(_ ib: InlineBlock, in paragraph: Block, left: Double, right: Double)
    -> FloatPiece?
  {
    guard floatNesting < Self.maxFloatNesting else { return nil }
    var ib = ib
    var sunk: (baseline: Double, height: Double)? = nil
    if let initial = ib.block.box.initialLetter {
      sunk = sizeInitialLetter(&ib, initial, paragraph: paragraph)
    }
    floatNesting += 1
    let laid = layoutInlineBox(ib, available: max(1, right - left))
    floatNesting -= 1
    var content = FloatContent(items: laid.items, lines: laid.lines, blockBoxes: laid.blockBoxes)
    var height = laid.ascent + laid.descent
    if let sunk {
      // The letter's baseline on the sunk line's baseline; the float takes the sunk lines.
      content.shift(dy: sunk.baseline - laid.ascent)
      height = sunk.height
    }
    return FloatPiece(width: laid.width, height: height, content: content)
  }

  /// `initial-letter: N M` (CSS Inline 3 §7.3): sizes the letter so its cap height spans
  /// from the first line's cap top to the Nth line's baseline (N − 1 line heights plus the
  /// paragraph's cap height) and returns where its baseline goes (the Mth line's baseline,
  /// from the paragraph's top) and the height the float takes (M lines).
  mutating func sizeInitialLetter(
    _ ib: inout InlineBlock, _ initial: InitialLetter, paragraph: Block
  ) -> (baseline: Double, height: Double) {
    let body = styles[resolve(paragraph.style)]
    let line = body.above + body.below
    let cap = (initial.size - 1) * line + body.decoration.capHeight * body.size
    let letter = styles[resolve(ib.block.style)]
    let ratio = max(0.1, letter.decoration.capHeight)
    let size = min(pageHeight, cap / ratio) / options.fontSize
    func sized(_ st: inout ComputedStyle) {
      st.fontSize = size
      st.lineHeight = .factor(1)
    }
    sized(&ib.block.style)
    for k in ib.block.inlines.indices {
      if case .text(var run) = ib.block.inlines[k] {
        sized(&run.style)
        ib.block.inlines[k] = .text(run)
      }
    }
    let baseline = body.above + Double(initial.sink - 1) * line
    return (baseline, Double(initial.sink) * line)
  }
}

/// A floated element taken out of a paragraph: its entry, that entry's flow y and the
/// element's source offset.
struct LiftedFloat {
  var entry: Int
  var top: Double
  var offset: Int
}

extension ChapterFlow {
  /// Reading order: a floated element's line boxes go after the paragraph line its source
  /// sits in (so the page's lines hold the text in source order, e.g. a verse line, then its
  /// number), when that line is beside the float (the same keep-together group, so on the
  /// same page); a float that starts the paragraph (a drop cap) keeps its lines before.
  /// Returns false when a float's source sits in a line below the lines beside it (its
  /// line boxes then stay where they are, before that line).
  @discardableResult
  mutating func moveFloatLines(_ lifted: [LiftedFloat]) -> Bool {
    var inOrder = true
    for f in lifted where entries.indices.contains(f.entry) {
      let group = entries[f.entry].group
      var y = f.top
      var target: (index: Int, top: Double)? = nil
      var beside = true  // still in the run of entries beside the float
      for k in (f.entry + 1)..<entries.count {
        let e = entries[k]
        let before = e.block != nil && !e.lines.isEmpty && e.start.offset < f.offset
        beside = beside && e.group == group
        guard beside else {
          if before { inOrder = false }
          continue
        }
        y += e.spaceBefore
        if before { target = (k, y) }
        y += e.height
      }
      guard let target else { continue }
      var moved = entries[f.entry]
      moved.shift(dx: 0, dy: f.top - target.top)
      entries[target.index].lines += moved.lines
      entries[target.index].blockBoxes += moved.blockBoxes
      entries[f.entry].lines = []
      entries[f.entry].blockBoxes = []
    }
    return inOrder
  }
}

/// A laid-out float before placement: its margin box and what it holds.
struct FloatPiece {
  var width: Double
  var height: Double
  var content: FloatContent
}

/// What a float holds, from its margin box's top-left: items (with its boxes' paints), line
/// boxes, image boxes and block boxes.
struct FloatContent {
  var items: [DisplayItem] = []
  var lines: [LineBox] = []
  var images: [ImagePlacement] = []
  var blockBoxes: [BlockBox] = []

  init(items: [DisplayItem], lines: [LineBox], blockBoxes: [BlockBox]) {
    self.items = items
    self.lines = lines
    self.blockBoxes = blockBoxes
  }

  /// The content of a nested flow's entries stacked from y 0; `boxes` are the flow's boxes
  /// (the entries' markers index them), painted with the page fragmenter over one piece.
  init(entries: [FlowEntry], boxes: [FlowBox]) {
    var fragmenter = BoxFragmenter(boxes: boxes, pageTop: 0, pageBottom: .greatestFiniteMagnitude)
    var y = 0.0
    for var e in entries {
      y += e.spaceBefore
      fragmenter.willPlace(e, page: 0, top: y, itemCount: items.count)
      e.shift(dx: 0, dy: y)
      items += e.items
      lines += e.lines
      images += e.images
      blockBoxes += e.blockBoxes
      y += e.height
      fragmenter.didPlace(e, bottom: y, itemCount: items.count)
    }
    let here = Location(spine: 0, offset: 0)
    var page = [Page(number: 1, spine: 0, href: "", start: here, end: here, items: items)]
    fragmenter.finish(&page)
    items = page[0].items
  }

  /// Moves the content down by `dy`.
  mutating func shift(dy: Double) {
    for i in items.indices { items[i].shift(dy: dy) }
    for i in lines.indices { lines[i].rect.y += dy }
    for i in images.indices { images[i].rect.y += dy }
  }

  /// Moves the content by (`dx`, `dy`) into `entry`.
  func fill(_ entry: inout FlowEntry, dx: Double, dy: Double) {
    entry.items = items.map { $0.offset(dx: dx, dy: dy) }
    entry.lines = lines.map {
      var l = $0
      l.rect.x += dx
      l.rect.y += dy
      return l
    }
    entry.images = images.map {
      var i = $0
      i.rect.x += dx
      i.rect.y += dy
      return i
    }
    entry.blockBoxes = blockBoxes.map {
      var b = $0
      b.rect.x += dx
      return b
    }
  }
}

extension FlowEntry {
  /// Moves what the entry draws and reports by (`dx`, `dy`) (block boxes: across only; their
  /// height comes from their lines on the page).
  mutating func shift(dx: Double, dy: Double = 0) {
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
    for i in maths.indices {
      maths[i].rect.x += dx
      maths[i].rect.y += dy
    }
    for i in inlineBoxes.indices {
      inlineBoxes[i].rect.x += dx
      inlineBoxes[i].rect.y += dy
    }
  }
}
