// Table layout (CSS 2.1 §17): a table block becomes flow entries, one per *band* — a run of
// rows that no rowspan crosses (usually one row) — so rows are the page's break points.
//
//   structure  captions (caption-side), rows in group order (header, body, footer), stray
//              content laid out before the table (HTML's foster parenting)
//   grid       `TableGrid`: slots, spans, rows of different lengths
//   borders    `TableFrame`: separated (each cell its own border, `border-spacing` between)
//              or collapsed (one resolved border per grid edge, §17.6.2 conflict rules)
//   columns    intrinsic widths per cell (`TableMeasure`), then `TableColumns`; the table
//              at least as wide as its captions' min-content (CSS Tables 3 CAPMIN), a
//              percentage `width` of the containing block, not of what its margins leave
//   cells      each cell laid out alone at its column's content width (the ordinary block
//              flow, in an isolated entry list); rows take their tallest cell; cells align
//              top/middle/bottom/baseline
//   entries    one per band with the boxes (table slice, row and cell backgrounds, borders)
//              and the cells' content; a band taller than a page is cut between lines
//              (`TableSlicing`); body bands carry the header to repeat on a new page.
//
// Coordinates: x in page pixels (the cells are laid out where they will be drawn), y from
// each entry's top. Units px. A cell's entries are laid out apart from the flow's (the flow's
// running height is put back after each), a floated table in a nested flow
// (FloatBlocks.swift), and `break-inside: avoid` keeps a table's entries in one group.
//
// When the grid passes its bounds, or the columns cannot hold one character each even with
// no spacing, the cells are stacked like paragraphs instead (content is never lost or drawn
// past the page); that is checked before anything is measured, so a hostile 1,000-column
// table costs what its text costs.
//
// Rejected: laying a table out as one tall entry (no page breaks between rows) and the old
// equal columns (empty columns took space while long words broke).

import QuireCore
import QuireIngest

/// The header rows of a table, to repeat at the top of each page the table continues on.
final class TableHeaderRepeat: Sendable {
  let items: [DisplayItem]
  let height: Double
  init(items: [DisplayItem], height: Double) {
    self.items = items
    self.height = height
  }
}

/// One cell laid out: its content entries stacked from y = 0.
struct LaidCell {
  var entries: [(entry: FlowEntry, y: Double)] = []
  var height = 0.0
  /// First baseline from the content top (the content height when there is no line).
  var baseline = 0.0
}

/// A table's rows, cells and grid.
struct TableStructure {
  var rows: [Block] = []
  /// In `grid.cells` order.
  var cells: [Block] = []
  var grid = TableGrid(rowCount: 0, columnCount: 0, cells: [])
  var topCaptions: [Block] = []
  var bottomCaptions: [Block] = []
  var stray: [Block] = []
  /// Rows (from the first) that repeat on each page.
  var headerRows = 0
}

extension ChapterFlow {
  /// Most levels of tables within table cells laid out as tables; deeper ones stack.
  static let maxTableNesting = 8

  /// A table block with its margins and breaks (called from `layout` for `.table`); returns
  /// the right edge of its border box (of its captions when they are wider).
  @discardableResult
  mutating func tableBlock(_ block: Block, left: Double, right: Double, depth: Int) -> Double {
    let st = block.style
    let width = max(1, right - left)
    if forcesBreak(st.breakBefore), !entries.isEmpty { pendingBreak = true }
    collapse(px(st.margin.top, of: width))
    let first = entries.count
    var l = left + px(st.margin.left, of: width)
    var r = right - px(st.margin.right, of: width)
    if r - l < options.fontSize * 2 {
      l = left
      r = right
    }
    let tableRight = table(block, left: l, right: r, containing: width, depth: depth)
    collapse(px(st.margin.bottom, of: width))
    if forcesBreak(st.breakAfter) { pendingBreak = true }
    // `break-inside/before/after: avoid` on the table and its captions (BlockBreaks.swift).
    applyBreaks(block, from: first)
    return tableRight
  }

  /// Lays out a table between `left` and `right` (its margins already taken off a containing
  /// block `containing` px wide, which percentages of its width and padding refer to, CSS 2.1
  /// §10.2, §8.4); returns its border box's right edge (`right` when its cells are stacked or
  /// it has no rows).
  @discardableResult
  mutating func table(
    _ block: Block, left: Double, right: Double, containing: Double, depth: Int
  ) -> Double {
    var structure = ChapterFlow.tableStructure(block)
    layout(blocks: structure.stray, left: left, right: right, depth: depth + 1)
    guard !structure.rows.isEmpty else {
      layout(
        blocks: structure.topCaptions + structure.bottomCaptions, left: left, right: right,
        depth: depth + 1)
      return right
    }
    let specs = structure.rows.map { row in
      row.children.map { ($0.table.columnSpan, $0.table.rowSpan) }
    }
    let nesting = tableNesting
    guard nesting < ChapterFlow.maxTableNesting, let grid = TableGrid.build(specs) else {
      stackCells(structure, left: left, right: right, depth: depth)
      return right
    }
    structure.grid = grid
    structure.cells = grid.cells.map { structure.rows[$0.row].children[$0.index] }
    let frame = TableFrame(block, structure: structure, flow: self, width: containing)
    // Columns that cannot hold one character each: stack the cells.
    let floor = Double(grid.columnCount) * options.fontSize * 0.5
    if floor + frame.horizontalChrome(columns: grid.columnCount) > right - left {
      stackCells(structure, left: left, right: right, depth: depth)
      return right
    }
    tableNesting += 1
    defer { tableNesting -= 1 }
    let (x0, widths) = columnWidths(
      block, structure, frame, left: left, right: right, containing: containing, depth: depth)
    let tableRight = x0 + widths.reduce(0, +) + frame.horizontalChrome(columns: widths.count)
    layout(
      blocks: structure.topCaptions, left: x0, right: max(tableRight, x0 + 1), depth: depth + 1)
    var placed = TablePlacement(frame: frame, structure: structure, left: x0, widths: widths)
    var laid: [LaidCell] = []
    laid.reserveCapacity(structure.cells.count)
    for (k, cell) in structure.cells.enumerated() {
      let (l, r) = placed.contentEdges(k)
      laid.append(layoutCell(cell, left: l, right: r, depth: depth))
    }
    placed.placeRows(laid, fontSize: options.fontSize)
    for e in tableEntries(placed, laid, block: block) { append(e) }
    layout(
      blocks: structure.bottomCaptions, left: x0, right: max(tableRight, x0 + 1), depth: depth + 1)
    return max(tableRight, x0 + 1)
  }

  /// The table's horizontal origin and column widths.
  mutating func columnWidths(
    _ block: Block, _ s: TableStructure, _ frame: TableFrame, left: Double, right: Double,
    containing: Double, depth: Int
  ) -> (Double, [Double]) {
    let n = s.grid.columnCount
    let chrome = frame.horizontalChrome(columns: n)
    let available = max(0, right - left - chrome)
    var specified: Double? = nil
    if let w = block.box.width {
      // A table's width is its border box's in browsers, whatever `box-sizing` says; a
      // percentage is of the containing block (the margins then apply), and the table never
      // runs past the room its margins leave (a browser lets it overflow).
      let outer = min(px(w, of: containing), right - left)
      specified = max(0, outer - chrome)
    }
    let declared = declaredColumnWidths(block, count: n, width: available)
    let requests = columnRequests(s, frame, width: available, depth: depth)
    // CSS Tables 3 §3.9.3: the table is at least as wide as its captions' min-content
    // (CAPMIN), the extra going to the columns; never wider than the room it has.
    let captions = min(available, max(0, captionMinimum(s, depth: depth) - chrome))
    let widths: [Double]
    if block.table.style.fixedLayout, let spec = specified {
      let used = max(min(spec, available), captions)
      let first = requests.filter { s.grid.cells[$0.cell].row == 0 }.map(\.request)
      widths = TableColumns.fixedLayout(
        columnCount: n, declared: declared, firstRow: first, used: used)
    } else {
      let columns = TableColumns(
        columnCount: n, requests: requests.map(\.request), declared: declared)
      widths = columns.widths(
        for: max(columns.usedWidth(available: available, specified: specified), captions))
    }
    var x0 = left
    let total = widths.reduce(0, +) + chrome
    if block.box.marginLeftAuto && block.box.marginRightAuto {
      x0 += max(0, (right - left - total) / 2)
    } else if block.box.marginLeftAuto {
      x0 += max(0, right - left - total)
    }
    return (x0, widths)
  }

  /// The widest min-content contribution of the table's captions (CAPMIN), px.
  mutating func captionMinimum(_ s: TableStructure, depth: Int) -> Double {
    var widest = 0.0
    for caption in s.topCaptions + s.bottomCaptions {
      widest = max(widest, intrinsicWidths(caption, depth: depth + 1).min)
    }
    return widest
  }

  /// Each declared column's px width (nil: auto).
  func declaredColumnWidths(_ block: Block, count: Int, width: Double) -> [Double?] {
    var out: [Double?] = []
    for c in block.table.columns where out.count < count {
      let w = c.width.map { px($0, of: width) }
      out += [Double?](repeating: w, count: min(c.span, count - out.count))
    }
    return out
  }

  /// Min/max requests of every cell (the cell's index in `grid.cells` with it).
  mutating func columnRequests(_ s: TableStructure, _ frame: TableFrame, width: Double, depth: Int)
    -> [(cell: Int, request: ColumnRequest)]
  {
    var out: [(cell: Int, request: ColumnRequest)] = []
    out.reserveCapacity(s.cells.count)
    for (k, cell) in s.cells.enumerated() {
      let g = s.grid.cells[k]
      let inset = frame.insets[k].left + frame.insets[k].right
      var content = IntrinsicWidths()
      var inner = cell
      inner.box = BoxStyle()
      inner.style.padding = .zero
      inner.style.margin = .zero
      content.include(intrinsicWidths(inner, depth: depth + 1))
      var request = ColumnRequest(
        column: g.column, span: g.columnSpan, minWidth: content.min + inset,
        maxWidth: content.max + inset)
      switch cell.box.width {
      case .rem(let v)?:
        request.fixed =
          max(0, v * options.fontSize) + (cell.box.boxSizing == .borderBox ? 0 : inset)
      case .percent(let p)?: request.percent = max(0, min(100, p))
      case nil: break
      }
      out.append((k, request))
    }
    return out
  }

  /// Lays out one cell's content alone (borders and padding are the table's to draw).
  mutating func layoutCell(_ cell: Block, left: Double, right: Double, depth: Int) -> LaidCell {
    var inner = cell
    inner.box = BoxStyle()
    inner.style.padding = .zero
    inner.style.margin = .zero
    inner.style.breakBefore = .auto
    inner.style.breakAfter = .auto
    let saved = (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker)
    // The cell's entries are not the flow's: the running flow height (floats, boxes) is put
    // back after it.
    let flowY = boxFlow.flowY
    entries = []
    pendingSpace = 0
    marginPos = 0
    marginNeg = 0
    pendingBreak = false
    // A hair of slack: a column exactly its min-content wide must not break that word.
    layout(inner, left: left, right: max(left + 1, right) + 0.01, depth: depth + 1)
    var out = LaidCell()
    var y = 0.0
    var baseline: Double? = nil
    // A cell is a block formatting context: its children's margins stay inside it.
    for e in entries {
      y += e.spaceBefore
      if baseline == nil, let b = e.firstBaseline { baseline = y + b }
      out.entries.append((e, y))
      y += e.height
    }
    flushMargins()
    out.height = y + max(0, pendingSpace)
    out.baseline = baseline ?? out.height
    (entries, pendingSpace, marginPos, marginNeg, pendingBreak, pendingMarker) = saved
    boxFlow.flowY = flowY
    return out
  }

  /// The cells one after another, like paragraphs (a grid too large, columns too narrow).
  mutating func stackCells(_ s: TableStructure, left: Double, right: Double, depth: Int) {
    layout(blocks: s.topCaptions, left: left, right: right, depth: depth + 1)
    for row in s.rows { layout(blocks: row.children, left: left, right: right, depth: depth + 1) }
    layout(blocks: s.bottomCaptions, left: left, right: right, depth: depth + 1)
  }

  /// Rows (header groups first, footer groups last), captions and stray blocks of a table.
  static func tableStructure(_ block: Block) -> TableStructure {
    var s = TableStructure()
    var header: [Block] = []
    var body: [Block] = []
    var footer: [Block] = []
    func visit(_ children: [Block], depth: Int) {
      for c in children {
        switch c.kind {
        case .tableRow:
          switch c.table.rowGroup {
          case .header: header.append(c)
          case .body: body.append(c)
          case .footer: footer.append(c)
          }
        case .caption:
          if c.table.style.captionSide == .bottom {
            s.bottomCaptions.append(c)
          } else {
            s.topCaptions.append(c)
          }
        case .tableCell:
          // A cell outside a row: a row of its own.
          var row = Block(kind: .tableRow, style: block.style, location: c.location, element: "")
          row.children = [c]
          body.append(row)
        default:
          if depth < 4,
            c.children.contains(where: { if case .tableRow = $0.kind { true } else { false } })
          {
            visit(c.children, depth: depth + 1)
          } else {
            s.stray.append(c)
          }
        }
      }
    }
    visit(block.children, depth: 0)
    s.rows = header + body + footer
    s.headerRows = header.count
    if s.headerRows == 0 {
      // Leading rows of header cells only.
      s.headerRows =
        s.rows.prefix { row in
          !row.children.isEmpty
            && row.children.allSatisfy {
              if case .tableCell(true) = $0.kind { true } else { false }
            }
        }.count
    }
    if s.headerRows >= s.rows.count { s.headerRows = 0 }
    // Every cell a block of kind cell (stray blocks in a row become cells).
    for i in s.rows.indices {
      for j in s.rows[i].children.indices {
        if case .tableCell = s.rows[i].children[j].kind { continue }
        s.rows[i].children[j].kind = .tableCell(header: false)
      }
    }
    return s
  }
}

extension FlowEntry {
  /// The first glyph run's baseline from the entry's top, if any.
  var firstBaseline: Double? {
    for item in items {
      if case .glyphs(let run) = item, let y = run.y.first { return Double(y) }
    }
    return nil
  }
}

extension ChapterFlow {
  /// A nested table's min-content and max-content widths (its columns' sums and chrome);
  /// nil when it would be stacked.
  mutating func tableIntrinsicWidths(_ block: Block, depth: Int) -> IntrinsicWidths? {
    var s = ChapterFlow.tableStructure(block)
    let specs = s.rows.map { row in row.children.map { ($0.table.columnSpan, $0.table.rowSpan) } }
    guard !s.rows.isEmpty, tableNesting < ChapterFlow.maxTableNesting,
      let grid = TableGrid.build(specs)
    else { return nil }
    s.grid = grid
    s.cells = grid.cells.map { s.rows[$0.row].children[$0.index] }
    let frame = TableFrame(block, structure: s, flow: self, width: textWidth)
    tableNesting += 1
    defer { tableNesting -= 1 }
    let requests = columnRequests(s, frame, width: textWidth, depth: depth)
    let declared = declaredColumnWidths(block, count: grid.columnCount, width: textWidth)
    let columns = TableColumns(
      columnCount: grid.columnCount, requests: requests.map(\.request), declared: declared)
    let chrome = frame.horizontalChrome(columns: grid.columnCount)
    let captions = captionMinimum(s, depth: depth)
    return IntrinsicWidths(
      min: max(columns.minTotal + chrome, captions), max: max(columns.maxTotal + chrome, captions))
  }
}
